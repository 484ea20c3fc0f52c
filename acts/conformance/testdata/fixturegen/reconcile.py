from common import *

cases = []


def case(name, prof, lines, open_keys, claims, warnings):
    c = {"name": name}
    c.update(prof)
    c["project"] = "garden"
    c["document"] = doc(*lines)
    c["open_keys"] = [{"key": k, "text": t, "reopened": n} for k, t, n in open_keys]
    c["claims"] = [{"id": "c:%s:r%d" % (k, n), "key": k, "outcome": "done"} for k, n in claims]
    c["warnings"] = warnings
    cases.append(c)


T1, T2 = "Collect the shed key", "Sign the allotment renewal"
k1, k2 = key(T1), key(T2)
m1, m2 = en_marker(k1), en_marker(k2)

case("line removed: claim r0", EN, ["## Tasks", "- [ ] [agent] Water seedlings"], [(k1, T1, 0)], [(k1, 0)], [])
case("carried key gets nothing", EN, ["## Tasks", "- [ ] [owner] " + T1 + m1], [(k1, T1, 0)], [], [])
case("carried under an edited text gets nothing", EN, ["## Tasks", "- [ ] [owner] Collect both keys" + m1], [(k1, T1, 0)], [], [])
case("after one reopen the claim is r1", EN, ["## Tasks"], [(k1, T1, 1)], [(k1, 1)], [])
case("after three reopens the claim is r3", EN, ["## Tasks", "- (none)"], [(k1, T1, 3)], [(k1, 3)], [])
case("no tasks section at all: claim", EN, ["# Garden", "Nothing here."], [(k1, T1, 0)], [(k1, 0)], [])
case("empty document: claim", EN, [], [(k1, T1, 0)], [(k1, 0)], [])
case("two vanished keys: two claims", EN, ["## Tasks", "- [ ] [agent] Water seedlings"], [(k1, T1, 0), (k2, T2, 0)], [(k1, 0), (k2, 0)], [])
case("one carried, one vanished", EN, ["## Tasks", "- [ ] [owner] " + T2 + m2], [(k1, T1, 0), (k2, T2, 0)], [(k1, 0)], [])
case("a ticked line still carries the key (D16)", EN, ["## Tasks", "- [x] [owner] " + T1 + m1], [(k1, T1, 0)], [], [])
case("an agent line carrying the key counts", EN, ["## Tasks", "- [ ] [agent] " + T1 + m1], [(k1, T1, 0)], [], [])
case("a grouped line carrying the key counts", EN, ["## Tasks", "### [owner]", "- [ ] " + T1 + m1], [(k1, T1, 0)], [], [])
case("a line outside the section does not carry the key", EN, ["## Tasks", "- (none)", "## Log", "- [ ] [owner] " + T1 + m1],
     [(k1, T1, 0)], [(k1, 0)], [])
case("a rewritten line: warn, send nothing", EN, ["## Tasks", "- [ ] [owner] Pick up the shed key from Ann"], [(k1, T1, 0)], [], [k1])
case("a line extended with more words is a rewrite", EN, ["## Tasks", "- [ ] [owner] Collect the shed key on Saturday morning"],
     [(k1, T1, 0)], [], [k1])
case("a rewrite that already got its own key is still a rewrite", EN,
     ["## Tasks", "- [ ] [owner] Collect the shed key on Saturday" + en_marker(key("Collect the shed key on Saturday"))],
     [(k1, T1, 0)], [], [k1])
case("a reworded line in another case is a rewrite", EN, ["## Tasks", "- [ ] [owner] COLLECT THE SHED KEY!"], [(k1, T1, 0)], [], [k1])
case("unrelated lines are no rewrite: claim", EN,
     ["## Tasks", "- [ ] [owner] Pay the water levy", "- [ ] [agent] Draft the planting calendar", "- [ ] [undecided] Tomatoes or peppers?"],
     [(k1, T1, 0)], [(k1, 0)], [])
case("a rewrite of one key does not stop the claim for another", EN, ["## Tasks", "- [ ] [owner] Pick up the shed key from Ann"],
     [(k1, T1, 0), (k2, T2, 0)], [(k2, 0)], [k1])
Z1, Z2 = "繳交社區花園租金", "簽主機合約"
kz1, kz2 = key(Z1), key(Z2)
case("zh-hant vanished: claim", ZH, ["## 待辦", "- [ ] 〔agent〕上傳加重試"], [(kz1, Z1, 0)], [(kz1, 0)], [])
case("zh-hant carried with a full-width marker", ZH, ["## 待辦", "- [ ] 〔Owner〕" + Z1 + "（等 Owner：" + kz1 + "）"], [(kz1, Z1, 0)], [], [])
case("zh-hant rewrite: warn", ZH, ["## 待辦", "- [ ] 〔Owner〕繳交社區花園租金和水費"], [(kz1, Z1, 0)], [], [kz1])
case("zh-hant unrelated: claim", ZH, ["## 待辦", "- [ ] 〔Owner〕" + Z2 + zh_marker(kz2)], [(kz1, Z1, 0), (kz2, Z2, 0)], [(kz1, 0)], [])
write("reconcile.json", cases)
