from common import *

cases = []


def case(name, prof, lines, latest, amended):
    c = {"name": name}
    c.update(prof)
    c["project"] = "garden"
    c["document"] = doc(*lines)
    c["latest"] = {k: {"text": t, "terms_rev": rev, "need_id": nid} for k, (t, rev, nid) in latest.items()}
    c["amended"] = [{"id": "a:%s:%d" % (k, rev), "key": k, "terms": {"text": t}, "terms_rev": rev, "supersedes": [sup]}
                    for k, t, rev, sup in amended]
    cases.append(c)


T1, T2 = "Collect the shed key", "Sign the allotment renewal"
k1, k2 = key(T1), key(T2)
m1, m2 = en_marker(k1), en_marker(k2)
r1, r2 = "r:" + k1, "r:" + k2

case("edited text is amended", EN, ["## Tasks", "- [ ] [owner] Collect the shed key on Saturday" + m1], {k1: (T1, 1, r1)},
     [(k1, "Collect the shed key on Saturday", 2, r1)])
case("unchanged text: nothing", EN, ["## Tasks", "- [ ] [owner] " + T1 + m1], {k1: (T1, 1, r1)}, [])
case("only whitespace differs: nothing", EN, ["## Tasks", "- [ ] [owner]  Collect\tthe\u3000shed   key " + m1], {k1: (T1, 1, r1)}, [])
case("case differs: amended", EN, ["## Tasks", "- [ ] [owner] collect the shed key" + m1], {k1: (T1, 1, r1)},
     [(k1, "collect the shed key", 2, r1)])
case("the amended text is normalised", EN, ["## Tasks", "- [ ] [owner]   Collect  the shed key\ttoday  " + m1], {k1: (T1, 1, r1)},
     [(k1, "Collect the shed key today", 2, r1)])
case("terms_rev goes up by one from the latest", EN, ["## Tasks", "- [ ] [owner] Collect the spare key" + m1],
     {k1: ("Collect the shed key on Saturday", 3, "a:%s:3" % k1)}, [(k1, "Collect the spare key", 4, "a:%s:3" % k1)])
case("several lines: document order", EN,
     ["## Tasks", "- [ ] [owner] Sign the allotment renewal today" + m2, "- [ ] [agent] Water seedlings", "- [ ] [owner] Collect both keys" + m1],
     {k1: (T1, 1, r1), k2: (T2, 1, r2)}, [(k2, "Sign the allotment renewal today", 2, r2), (k1, "Collect both keys", 2, r1)])
case("grouped keyed line", EN, ["## Tasks", "### [owner]", "- [ ] Collect the red key" + m1], {k1: (T1, 1, r1)},
     [(k1, "Collect the red key", 2, r1)])
case("a marker-like string earlier in the text is part of the new text", EN,
     ["## Tasks", "- [ ] [owner] Collect the key (waiting on owner: x) now" + m1], {k1: (T1, 1, r1)},
     [(k1, "Collect the key (waiting on owner: x) now", 2, r1)])
case("a key the log does not know is not amended", EN, ["## Tasks", "- [ ] [owner] Something else" + m2], {k1: (T1, 1, r1)}, [])
case("a ticked line is malformed: not amended", EN, ["## Tasks", "- [x] [owner] Collected the shed key" + m1], {k1: (T1, 1, r1)}, [])
case("a line outside the section is not amended", EN,
     ["## Tasks", "- [ ] [owner] " + T1 + m1, "## Log", "- [ ] [owner] Collected it" + m1], {k1: (T1, 1, r1)}, [])
case("two lines with the key and the same new text: one amendment", EN,
     ["## Tasks", "- [ ] [owner] Collect the shed key today" + m1, "### [owner]", "- [ ] Collect the shed key  today" + m1],
     {k1: (T1, 1, r1)}, [(k1, "Collect the shed key today", 2, r1)])
case("full-width marker spacing does not count as text", EN, ["## Tasks", "- [ ] [owner] " + T1 + "(waiting on owner:" + k1 + ")  "],
     {k1: (T1, 1, r1)}, [])
Z = "繳交社區花園租金"
kz = key(Z)
case("zh-hant edited text", ZH, ["## 待辦", "- [ ] 〔Owner〕繳交社區花園租金和水費" + zh_marker(kz)], {kz: (Z, 1, "r:" + kz)},
     [(kz, "繳交社區花園租金和水費", 2, "r:" + kz)])
case("zh-hant full-width marker, unchanged text", ZH, ["## 待辦", "- [ ] 〔Owner〕" + Z + "（等 Owner：" + kz + "）"], {kz: (Z, 1, "r:" + kz)}, [])
case("zh-hant ideographic spaces only: nothing", ZH, ["## 待辦", "- [ ] 〔Owner〕\u3000" + Z + "\u3000" + zh_marker(kz)], {kz: (Z, 1, "r:" + kz)}, [])
write("amend.json", cases)
