from common import *

cases = []


def case(name, prof, lines, records, acked, expected, sent, project="garden"):
    c = {"name": name}
    c.update(prof)
    c["project"] = project
    c["document"] = doc(*lines)
    c["log"] = {"records": records, "acked": acked}
    c["expected_document"] = doc(*expected)
    c["sent"] = [{"id": i, "type": t, "key": k} for i, t, k in sent]
    c["second_run_sends"] = []
    cases.append(c)


T1, T2, T3 = "Collect the shed key", "Sign the allotment renewal", "Pay the water levy"
k1, k2, k3 = key(T1), key(T2), key(T3)
m1, m2, m3 = en_marker(k1), en_marker(k2), en_marker(k3)
L1, L2, L3 = "- [ ] [owner] " + T1 + m1, "- [ ] [owner] " + T2 + m2, "- [ ] [owner] " + T3 + m3
AG = "- [ ] [agent] Water seedlings"

case("first run raises and stamps", EN, ["## Tasks", "- [ ] [owner] " + T1], [], [], ["## Tasks", L1], [("r:" + k1, "raised", k1)])
case("nothing to do: nothing sent, nothing changed", EN, ["## Tasks", L1, AG], [raised(k1, T1)], [], ["## Tasks", L1, AG], [])
case("empty log, no section", EN, ["# Garden", "- [ ] [owner] " + T1], [], [], ["# Garden", "- [ ] [owner] " + T1], [])
case("pending settlement strikes", EN, ["## Tasks", L1, AG], [raised(k1, T1), settled("s-1", k1)], [], ["## Tasks", AG], [])
case("pending settlement strikes the last line: placeholder", EN, ["## Tasks", L1], [raised(k1, T1), settled("s-1", k1)], [],
     ["## Tasks", "- (none)"], [])
case("an acknowledged settlement is not applied again", EN, ["## Tasks", L1, AG], [raised(k1, T1), settled("s-1", k1)], ["s-1"],
     ["## Tasks", L1, AG], [])
case("a settlement for a key no line carries is consumed", EN, ["## Tasks", AG], [raised(k1, T1), settled("s-1", k1)], [],
     ["## Tasks", AG], [])
case("relink instead of raising again", EN, ["## Tasks", "- [ ] [owner]  Collect the  shed key"], [raised(k1, T1)], [],
     ["## Tasks", "- [ ] [owner]  Collect the  shed key" + m1], [])
case("relink to the latest terms after an amendment", EN, ["## Tasks", "- [ ] [owner] Collect both keys"],
     [raised(k1, T1), amended(k1, "Collect both keys", 2, "r:" + k1)], [], ["## Tasks", "- [ ] [owner] Collect both keys" + m1], [])
case("edited keyed line is amended", EN, ["## Tasks", "- [ ] [owner] Collect the shed key on Saturday" + m1], [raised(k1, T1)], [],
     ["## Tasks", "- [ ] [owner] Collect the shed key on Saturday" + m1], [("a:%s:2" % k1, "amended", k1)])
case("second amendment supersedes the first", EN, ["## Tasks", "- [ ] [owner] Collect the red key" + m1],
     [raised(k1, T1), amended(k1, "Collect both keys", 2, "r:" + k1)], [],
     ["## Tasks", "- [ ] [owner] Collect the red key" + m1], [("a:%s:3" % k1, "amended", k1)])
case("deleted line: claim r0", EN, ["## Tasks", AG], [raised(k1, T1)], [], ["## Tasks", AG], [("c:%s:r0" % k1, "claimed", k1)])
case("deleted line already claimed: nothing", EN, ["## Tasks", AG], [raised(k1, T1), claimed("c:%s:r0" % k1, k1)], [],
     ["## Tasks", AG], [])
case("an agent's claim does not stop the registrar's", EN, ["## Tasks", AG], [raised(k1, T1), claimed("c-agent-9", k1, origin="agent")], [],
     ["## Tasks", AG], [("c:%s:r0" % k1, "claimed", k1)])
case("deleted line of a withdrawn act: no claim", EN, ["## Tasks", AG], [raised(k1, T1), withdrawn(k1, "r:" + k1)], [],
     ["## Tasks", AG], [])
case("deleted line of a settled act: no claim", EN, ["## Tasks", AG], [raised(k1, T1), settled("s-1", k1)], ["s-1"], ["## Tasks", AG], [])
case("reopened: the line comes back, no claim", EN, ["## Tasks", AG],
     [raised(k1, T1), settled("s-1", k1), reopened("o-1", k1, "s-1", T1)], ["s-1"], ["## Tasks", AG, L1], [])
case("reopened, then deleted again: claim r1", EN, ["## Tasks", AG],
     [raised(k1, T1), settled("s-1", k1), reopened("o-1", k1, "s-1", T1), claimed("c:%s:r0" % k1, k1)], ["s-1", "o-1"],
     ["## Tasks", AG], [("c:%s:r1" % k1, "claimed", k1)])
case("reopened into a document without a tasks section", EN, ["# Garden"],
     [raised(k1, T1), settled("s-1", k1), reopened("o-1", k1, "s-1", T1)], ["s-1"], ["# Garden", "## Tasks", L1], [])
case("rewritten line: raised for the new text, warning for the old key", EN, ["## Tasks", "- [ ] [owner] Pick up the shed key from Ann"],
     [raised(k1, T1)], [], ["## Tasks", "- [ ] [owner] Pick up the shed key from Ann" + en_marker(key("Pick up the shed key from Ann"))],
     [("r:" + key("Pick up the shed key from Ann"), "raised", key("Pick up the shed key from Ann"))])
case("two new lines with the same text: one raised, both stamped (D16)", EN, ["## Tasks", "- [ ] [owner] " + T1, "### [owner]", "- [ ] " + T1],
     [], [], ["## Tasks", L1, "### [owner]", "- [ ] " + T1 + m1], [("r:" + k1, "raised", k1)])
case("a new line with a settled act's text: stamped, nothing sent (§11)", EN, ["## Tasks", "- [ ] [owner] " + T1],
     [raised(k1, T1), settled("s-1", k1)], ["s-1"], ["## Tasks", L1], [])
case("all steps in one run, in step order", EN,
     ["## Tasks", L1, "- [ ] [owner] Sign the allotment renewal today" + m2, "- [ ] [owner] " + T3, AG],
     [raised(k1, T1), raised(k2, T2), raised(key("Mend the fence"), "Mend the fence"), settled("s-1", k1)], [],
     ["## Tasks", "- [ ] [owner] Sign the allotment renewal today" + m2, L3, AG],
     [("r:" + k3, "raised", k3), ("a:%s:2" % k2, "amended", k2), ("c:%s:r0" % key("Mend the fence"), "claimed", key("Mend the fence"))])
case("raised records in document order", EN, ["## Tasks", "- [ ] [owner] " + T3, "- [ ] [owner] " + T1, "- [ ] [owner] " + T2], [], [],
     ["## Tasks", L3, L1, L2], [("r:" + k3, "raised", k3), ("r:" + k1, "raised", k1), ("r:" + k2, "raised", k2)])
case("a pending strike and a new line", EN, ["## Tasks", L1, "- [ ] [owner] " + T2], [raised(k1, T1), settled("s-1", k1)], [],
     ["## Tasks", L2], [("r:" + k2, "raised", k2)])
case("notes, relations and agent claims change nothing (I2)", EN, ["## Tasks", L1],
     [raised(k1, T1), note("n-1", k1), related("rel-1", k1, k2), claimed("c-agent-1", k1, origin="agent")], [], ["## Tasks", L1], [])
case("a withdrawal changes nothing (I2)", EN, ["## Tasks", L1], [raised(k1, T1), withdrawn(k1, "r:" + k1)], [], ["## Tasks", L1], [])
case("malformed lines are left as they are", EN, ["## Tasks", "- [x] [owner] " + T1, "- [ ] [boss] " + T2, "- [ ] " + T3], [], [],
     ["## Tasks", "- [x] [owner] " + T1, "- [ ] [boss] " + T2, "- [ ] " + T3], [])
case("a ticked line carrying an open key: no claim, nothing sent (D16)", EN, ["## Tasks", "- [x] [owner] " + T1 + m1], [raised(k1, T1)], [],
     ["## Tasks", "- [x] [owner] " + T1 + m1], [])
case("a settlement strikes a ticked line (D16)", EN, ["## Tasks", "- [x] [owner] " + T1 + m1], [raised(k1, T1), settled("s-1", k1)], [],
     ["## Tasks", "- (none)"], [])
Z1, Z2 = "繳交社區花園租金", "簽主機合約"
kz1, kz2 = key(Z1), key(Z2)
case("zh-hant first run", ZH, ["## 待辦", "- [ ] 〔Owner〕" + Z1, "### 〔Owner〕", "- [ ] " + Z2], [], [],
     ["## 待辦", "- [ ] 〔Owner〕" + Z1 + zh_marker(kz1), "### 〔Owner〕", "- [ ] " + Z2 + zh_marker(kz2)],
     [("r:" + kz1, "raised", kz1), ("r:" + kz2, "raised", kz2)])
case("zh-hant strike, re-add and claim", ZH, ["## 待辦", "- [ ] 〔Owner〕" + Z1 + "（等 Owner：" + kz1 + "）"],
     [raised(kz1, Z1), raised(kz2, Z2), raised(key("澆花"), "澆花"), settled("s-1", kz1), settled("s-2", kz2), reopened("o-2", kz2, "s-2", Z2)], ["s-2"],
     ["## 待辦", "- [ ] 〔Owner〕" + Z2 + zh_marker(kz2)], [("c:%s:r0" % key("澆花"), "claimed", key("澆花"))])
case("zh-hant another principal tag", zh("老闆"), ["## 待辦", "- [ ] 〔老闆〕" + Z1], [], [],
     ["## 待辦", "- [ ] 〔老闆〕" + Z1 + zh_marker(kz1, "老闆")], [("r:" + kz1, "raised", kz1)])
case("another project name", EN, ["## Tasks", "- [ ] [owner] " + T1], [], [],
     ["## Tasks", "- [ ] [owner] " + T1 + en_marker(key(T1, "orchard"))], [("r:" + key(T1, "orchard"), "raised", key(T1, "orchard"))],
     project="orchard")
case("CRLF document: raise, strike and claim", EN,
     ["## Tasks\r", L1 + "\r", "- [ ] [owner] " + T2 + "\r", AG + "\r"],
     [raised(k1, T1), settled("s-1", k1), raised(k3, T3)], [],
     ["## Tasks", L2, AG], [("r:" + k2, "raised", k2), ("c:%s:r0" % k3, "claimed", k3)])
ext = raised("renew-2026", "Renew the domain")
ext["by"] = "agent:coder"
case("an act its requester raised outside the binding is never claimed", EN, ["## Tasks", AG], [ext], [], ["## Tasks", AG], [])
# Two vanished lines: §4 step 5 gives their claims no document order, so
# they are listed here in log order, not the runner's ascending key order.
vanished = sorted([(k1, T1), (k2, T2), (k3, T3)], key=lambda kt: kt[0], reverse=True)
case("several vanished lines: one claim each, in any order", EN, ["## Tasks", AG], [raised(k, t) for k, t in vanished], [],
     ["## Tasks", AG], [("c:%s:r0" % k, "claimed", k) for k, _ in vanished])
write("run.json", cases)
