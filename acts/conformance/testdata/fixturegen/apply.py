from common import *

cases = []


def case(name, prof, lines, records, expected):
    c = {"name": name}
    c.update(prof)
    c["project"] = "garden"
    c["document"] = doc(*lines)
    c["records"] = records
    c["expected_document"] = doc(*expected)
    cases.append(c)


T1, T2 = "Collect the shed key", "Sign the allotment renewal"
k1, k2 = key(T1), key(T2)
m1, m2 = en_marker(k1), en_marker(k2)
L1, L2 = "- [ ] [owner] " + T1 + m1, "- [ ] [owner] " + T2 + m2
R1 = "- [ ] [owner] " + T1 + m1  # the re-added line for k1

case("settled strikes the only line; placeholder", EN, ["## Tasks", L1], [settled("s-1", k1)], ["## Tasks", "- (none)"])
case("settled strikes one line, the other stays", EN, ["## Tasks", L1, L2], [settled("s-1", k1)], ["## Tasks", L2])
case("outcome dropped strikes too", EN, ["## Tasks", L1, L2], [settled("s-1", k1, "dropped")], ["## Tasks", L2])
case("outcome already_done strikes too", EN, ["## Tasks", L1, L2], [settled("s-1", k1, "already_done")], ["## Tasks", L2])
case("every line carrying the key is struck", EN, ["## Tasks", L1, "- [ ] [agent] Water seedlings", "### [owner]", "- [ ] Collect it again" + m1],
     [settled("s-1", k1)], ["## Tasks", "- [ ] [agent] Water seedlings", "### [owner]"])
case("an empty group heading keeps the body non-empty", EN, ["## Tasks", "### [owner]", "- [ ] " + T1 + m1], [settled("s-1", k1)],
     ["## Tasks", "### [owner]"])
case("prose keeps the body non-empty", EN, ["## Tasks", "Ask before Friday.", L1], [settled("s-1", k1)], ["## Tasks", "Ask before Friday."])
case("blank lines do not keep the body non-empty", EN, ["## Tasks", "", L1, "", "", "## Log", "Old."], [settled("s-1", k1)],
     ["## Tasks", "- (none)", "## Log", "Old."])
case("a ticked line carrying the key is struck (D16)", EN, ["## Tasks", "- [x] [owner] " + T1 + m1, L2], [settled("s-1", k1)], ["## Tasks", L2])
case("lines outside the section are never struck", EN, ["# Garden", L1, "## Tasks", L1, "## Log", L1], [settled("s-1", k1)],
     ["# Garden", L1, "## Tasks", "- (none)", "## Log", L1])
case("a settled for a key no line carries changes nothing", EN, ["## Tasks", L2], [settled("s-1", k1)], ["## Tasks", L2])
case("a settled for a key no line carries leaves an empty body alone", EN, ["## Tasks", ""], [settled("s-1", k1)], ["## Tasks"])
case("a settled for a key no line carries: no placeholder added to a blank body", EN, ["## Tasks", "", "## Log"], [settled("s-1", k1)],
     ["## Tasks", "## Log"])
case("two keys settled: both struck, one placeholder", EN, ["## Tasks", L1, L2], [settled("s-1", k1), settled("s-2", k2)],
     ["## Tasks", "- (none)"])
case("a note changes nothing (I2)", EN, ["## Tasks", L1], [note("n-1", k1)], ["## Tasks", L1])
case("a relation changes nothing (I2)", EN, ["## Tasks", L1], [related("rel-1", k1, k2)], ["## Tasks", L1])
case("a claim changes nothing (I2)", EN, ["## Tasks", L1], [claimed("c-agent-1", k1, origin="agent")], ["## Tasks", L1])
case("a withdrawal changes nothing (I2)", EN, ["## Tasks", L1], [raised(k1, T1), withdrawn(k1, "r:" + k1)], ["## Tasks", L1])
case("a withdrawn act still settles and is struck", EN, ["## Tasks", L1, L2], [raised(k1, T1), withdrawn(k1, "r:" + k1), settled("s-1", k1, "dropped")],
     ["## Tasks", L2])
case("reopened re-adds into a placeholder-only body", EN, ["## Tasks", "", "- (none)", ""],
     [settled("s-1", k1), reopened("o-1", k1, "s-1", T1)], ["## Tasks", R1])
case("reopened re-adds after the last non-blank line of the body", EN, ["## Tasks", L2, "- [ ] [agent] Water seedlings", "", "## Log", "Old."],
     [settled("s-1", k1), reopened("o-1", k1, "s-1", T1)], ["## Tasks", L2, "- [ ] [agent] Water seedlings", R1, "## Log", "Old."])
case("reopened re-adds after prose too", EN, ["## Tasks", "- (none)", "Some prose."],
     [settled("s-1", k1), reopened("o-1", k1, "s-1", T1)], ["## Tasks", "- (none)", "Some prose.", R1])
case("reopened re-adds as the first line of a blank body", EN, ["# Garden", "## Tasks", "", "", "## Log", "Old."],
     [settled("s-1", k1), reopened("o-1", k1, "s-1", T1)], ["# Garden", "## Tasks", R1, "## Log", "Old."])
case("reopened re-adds a tasks section when there is none", EN, ["# Garden", "Intro."],
     [settled("s-1", k1), reopened("o-1", k1, "s-1", T1)], ["# Garden", "Intro.", "## Tasks", R1])
case("reopened into an empty document", EN, [], [settled("s-1", k1), reopened("o-1", k1, "s-1", T1)], ["## Tasks", R1])
case("reopened does nothing when a line carries the key", EN, ["## Tasks", L1],
     [settled("s-1", k1), reopened("o-1", k1, "s-1", T1)], ["## Tasks", L1])
case("reopened does nothing when a ticked line carries the key (D16)", EN, ["## Tasks", "- [x] [owner] " + T1 + m1],
     [settled("s-1", k1), reopened("o-1", k1, "s-1", T1)], ["## Tasks", "- [x] [owner] " + T1 + m1])
case("a line outside the section does not count as carrying the key", EN, ["## Tasks", "- (none)", "## Log", L1],
     [settled("s-1", k1), reopened("o-1", k1, "s-1", T1)], ["## Tasks", R1, "## Log", L1])
case("restore_text is normalised", EN, ["## Tasks", "- (none)"],
     [settled("s-1", k1), reopened("o-1", k1, "s-1", "  Collect\tthe\u3000shed   key ")], ["## Tasks", R1])
case("the current settlement is a settled again after a reopen: strike", EN, ["## Tasks", L1, L2],
     [settled("s-1", k1), reopened("o-1", k1, "s-1", T1), settled("s-2", k1, "dropped", supersedes="o-1", ts="2026-11-04T09:00:00Z")],
     ["## Tasks", L2])
case("records in any order: the current settlement decides", EN, ["## Tasks", "- (none)"],
     [reopened("o-1", k1, "s-1", T1), settled("s-1", k1)], ["## Tasks", R1])
case("the re-added line uses the label and separator of the profile", EN, ["## Tasks", "### [agent]", "- [ ] Water seedlings"],
     [settled("s-1", k1), reopened("o-1", k1, "s-1", T1)], ["## Tasks", "### [agent]", "- [ ] Water seedlings", R1])
case("one strike, one re-add", EN, ["## Tasks", L2],
     [settled("s-2", k2), settled("s-1", k1), reopened("o-1", k1, "s-1", T1)], ["## Tasks", R1])
Z = "繳交社區花園租金"
kz = key(Z)
LZ = "- [ ] 〔Owner〕" + Z + zh_marker(kz)
case("zh-hant settled strikes; placeholder", ZH, ["## 待辦", LZ], [settled("s-z", kz)], ["## 待辦", "- (無)"])
case("zh-hant full-width marker line is struck", ZH, ["## 待辦", "- [ ] 〔Owner〕" + Z + "（等 Owner：" + kz + "）", "- [ ] 〔agent〕上傳加重試"],
     [settled("s-z", kz)], ["## 待辦", "- [ ] 〔agent〕上傳加重試"])
case("zh-hant reopened re-adds into a placeholder-only body", ZH, ["## 待辦", "- (無)"],
     [settled("s-z", kz), reopened("o-z", kz, "s-z", Z)], ["## 待辦", LZ])
case("zh-hant reopened with no section", ZH, ["# 花園"], [settled("s-z", kz), reopened("o-z", kz, "s-z", Z)], ["# 花園", "## 待辦", LZ])
case("zh-hant re-add with another principal tag", zh("老闆"), ["## 待辦", "- (無)"],
     [settled("s-z", kz), reopened("o-z", kz, "s-z", Z)], ["## 待辦", "- [ ] 〔老闆〕" + Z + zh_marker(kz, "老闆")])
case("a lone reopened (its settled never arrived) still re-adds", EN, ["## Tasks", "- (none)"],
     [reopened("o-1", k1, "s-1", T1)], ["## Tasks", R1])
write("apply.json", cases)
