from common import *

cases = []


def case(name, prof, lines, open_keys, expected):
    c = {"name": name}
    c.update(prof)
    c["project"] = "garden"
    c["document"] = doc(*lines)
    c["open_keys"] = [{"key": k, "text": t} for k, t in open_keys]
    c["expected_document"] = doc(*expected)
    cases.append(c)


T1, T2 = "Sign the allotment renewal", "Collect the shed key"
k1, k2 = key(T1), key(T2)
m1, m2 = en_marker(k1), en_marker(k2)

case("exact text is stamped again", EN, ["## Tasks", "- [ ] [owner] " + T1], [(k1, T1)], ["## Tasks", "- [ ] [owner] " + T1 + m1])
case("normalised text is compared; the line keeps its spacing", EN,
     ["## Tasks", "- [ ] [owner]   Sign  the\tallotment renewal   "], [(k1, T1)],
     ["## Tasks", "- [ ] [owner]   Sign  the\tallotment renewal" + m1])
case("ideographic spaces normalise too", EN,
     ["## Tasks", "- [ ] [owner] Sign\u3000the allotment renewal"], [(k1, T1)],
     ["## Tasks", "- [ ] [owner] Sign\u3000the allotment renewal" + m1])
case("grouped line is stamped again", EN,
     ["## Tasks", "### [owner]", "- [ ] " + T1], [(k1, T1)], ["## Tasks", "### [owner]", "- [ ] " + T1 + m1])
case("different text is not relinked", EN,
     ["## Tasks", "- [ ] [owner] Sign the allotment renewal form"], [(k1, T1)], ["## Tasks", "- [ ] [owner] Sign the allotment renewal form"])
case("case differs: not relinked", EN,
     ["## Tasks", "- [ ] [owner] sign the allotment renewal"], [(k1, T1)], ["## Tasks", "- [ ] [owner] sign the allotment renewal"])
case("agent line with the same text is not an act", EN,
     ["## Tasks", "- [ ] [agent] " + T1], [(k1, T1)], ["## Tasks", "- [ ] [agent] " + T1])
case("undecided grouped line is not an act", EN,
     ["## Tasks", "### [undecided]", "- [ ] " + T1], [(k1, T1)], ["## Tasks", "### [undecided]", "- [ ] " + T1])
case("a line keyed with another key is left alone", EN,
     ["## Tasks", "- [ ] [owner] " + T1 + m2], [(k1, T1)], ["## Tasks", "- [ ] [owner] " + T1 + m2])
case("a key some line carries is not relinked", EN,
     ["## Tasks", "- [ ] [owner] " + T1 + m1, "- [ ] [owner] " + T1], [(k1, T1)], ["## Tasks", "- [ ] [owner] " + T1 + m1, "- [ ] [owner] " + T1])
case("two keys, each to its own line", EN,
     ["## Tasks", "- [ ] [owner] " + T2, "- [ ] [agent] Water seedlings", "- [ ] [owner] " + T1], [(k1, T1), (k2, T2)],
     ["## Tasks", "- [ ] [owner] " + T2 + m2, "- [ ] [agent] Water seedlings", "- [ ] [owner] " + T1 + m1])
case("lines outside the section are not relinked", EN,
     ["# Garden", "- [ ] [owner] " + T1, "## Tasks", "- (none)", "## Log", "- [ ] [owner] " + T1], [(k1, T1)],
     ["# Garden", "- [ ] [owner] " + T1, "## Tasks", "- (none)", "## Log", "- [ ] [owner] " + T1])
case("a ticked line is malformed and not relinked", EN,
     ["## Tasks", "- [x] [owner] " + T1], [(k1, T1)], ["## Tasks", "- [x] [owner] " + T1])
case("nothing open: nothing changes", EN, ["## Tasks", "- [ ] [owner] " + T1], [], ["## Tasks", "- [ ] [owner] " + T1])
case("prose and other lines untouched", EN,
     ["# Garden", "Intro with " + T1, "## Tasks", "Prose.", "- [ ] [owner] " + T1 + "  ", "", "## Log"], [(k1, T1)],
     ["# Garden", "Intro with " + T1, "## Tasks", "Prose.", "- [ ] [owner] " + T1 + m1, "", "## Log"])
kz = key("繳交社區花園租金")
case("zh-hant line is stamped again", ZH, ["## 待辦", "- [ ] 〔Owner〕繳交社區花園租金"], [(kz, "繳交社區花園租金")],
     ["## 待辦", "- [ ] 〔Owner〕繳交社區花園租金" + zh_marker(kz)])
case("zh-hant grouped line with ideographic spaces", ZH, ["## 待辦", "### 〔Owner〕", "- [ ] 繳交\u3000社區花園租金\u3000"],
     [(key("繳交 社區花園租金"), "繳交 社區花園租金")], ["## 待辦", "### 〔Owner〕", "- [ ] 繳交\u3000社區花園租金" + zh_marker(key("繳交 社區花園租金"))])
case("zh-hant with another principal tag", zh("老闆"), ["## 待辦", "- [ ] 〔老闆〕繳交社區花園租金"], [(kz, "繳交社區花園租金")],
     ["## 待辦", "- [ ] 〔老闆〕繳交社區花園租金" + zh_marker(kz, "老闆")])
case("an amended act relinks on its latest terms", EN,
     ["## Tasks", "- [ ] [owner] Sign the allotment renewal by Friday"], [(k1, "Sign the allotment renewal by Friday")],
     ["## Tasks", "- [ ] [owner] Sign the allotment renewal by Friday" + m1])
write("relink.json", cases)
