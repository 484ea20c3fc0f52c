from common import *

cases = []


def case(name, prof, lines, expected, raised_texts, project="garden", known=None):
    c = {"name": name}
    c.update(prof)
    c["project"] = project
    c["document"] = doc(*lines)
    if known is not None:
        c["known_keys"] = known
    c["expected_document"] = doc(*expected)
    c["raised"] = [{"id": "r:" + key(t, project), "key": key(t, project), "terms": {"text": normalise(t)}, "terms_rev": 1}
                   for t in raised_texts]
    cases.append(c)


T1, T2, T3 = "Sign the allotment renewal", "Collect the shed key", "Pay the water levy"
k1, k2, k3 = key(T1), key(T2), key(T3)

case("one new owner line", EN, ["## Tasks", "- [ ] [owner] " + T1], ["## Tasks", "- [ ] [owner] " + T1 + en_marker(k1)], [T1])
case("new lines are raised in document order", EN,
     ["## Tasks", "- [ ] [owner] " + T2, "- [ ] [owner] " + T1, "### [owner]", "- [ ] " + T3],
     ["## Tasks", "- [ ] [owner] " + T2 + en_marker(k2), "- [ ] [owner] " + T1 + en_marker(k1), "### [owner]", "- [ ] " + T3 + en_marker(k3)],
     [T2, T1, T3])
case("agent and undecided lines are never raised", EN,
     ["## Tasks", "- [ ] [agent] " + T1, "- [ ] [undecided] " + T2 + "?", "### [agent]", "- [ ] " + T3],
     ["## Tasks", "- [ ] [agent] " + T1, "- [ ] [undecided] " + T2 + "?", "### [agent]", "- [ ] " + T3], [])
case("keyed lines are not raised again", EN,
     ["## Tasks", "- [ ] [owner] " + T1 + en_marker(k1), "- [ ] [owner] " + T2],
     ["## Tasks", "- [ ] [owner] " + T1 + en_marker(k1), "- [ ] [owner] " + T2 + en_marker(k2)], [T2])
case("trailing whitespace is removed before the marker", EN,
     ["## Tasks", "- [ ] [owner] " + T1 + " \t  "], ["## Tasks", "- [ ] [owner] " + T1 + en_marker(k1)], [T1])
case("the raised text is normalised; the line keeps its spacing", EN,
     ["## Tasks", "- [ ] [owner]   Sign  the\tallotment\u3000renewal"],
     ["## Tasks", "- [ ] [owner]   Sign  the\tallotment\u3000renewal" + en_marker(k1)], ["Sign  the\tallotment\u3000renewal"])
case("two new lines with the same text share one key and one raised (D16)", EN,
     ["## Tasks", "- [ ] [owner] " + T1, "- [ ] [owner]  Sign the allotment  renewal"],
     ["## Tasks", "- [ ] [owner] " + T1 + en_marker(k1), "- [ ] [owner]  Sign the allotment  renewal" + en_marker(k1)], [T1])
case("malformed lines are not raised", EN,
     ["## Tasks", "- [x] [owner] " + T1, "- [ ] [boss] " + T2, "- [ ] " + T3],
     ["## Tasks", "- [x] [owner] " + T1, "- [ ] [boss] " + T2, "- [ ] " + T3], [])
case("lines outside the section are not raised", EN,
     ["# Garden", "- [ ] [owner] " + T1, "## Tasks", "- [ ] [owner] " + T2, "## Done", "- [ ] [owner] " + T3],
     ["# Garden", "- [ ] [owner] " + T1, "## Tasks", "- [ ] [owner] " + T2 + en_marker(k2), "## Done", "- [ ] [owner] " + T3], [T2])
case("no tasks section: nothing raised", EN, ["# Garden", "- [ ] [owner] " + T1], ["# Garden", "- [ ] [owner] " + T1], [])
case("a marker-like string inside the text stays text", EN,
     ["## Tasks", "- [ ] [owner] Ask (waiting on owner: k-1) about it"],
     ["## Tasks", "- [ ] [owner] Ask (waiting on owner: k-1) about it" + en_marker(key("Ask (waiting on owner: k-1) about it"))],
     ["Ask (waiting on owner: k-1) about it"])
case("the project is part of the key", EN, ["## Tasks", "- [ ] [owner] " + T1],
     ["## Tasks", "- [ ] [owner] " + T1 + en_marker(key(T1, "orchard"))], [T1], project="orchard")
case("project with dots and dashes", EN, ["## Tasks", "- [ ] [owner] " + T1],
     ["## Tasks", "- [ ] [owner] " + T1 + en_marker(key(T1, "home.lab-2"))], [T1], project="home.lab-2")
case("grouped form after an unlabelled heading keeps the group (D16)", EN,
     ["## Tasks", "### [owner]", "### Notes", "- [ ] " + T1],
     ["## Tasks", "### [owner]", "### Notes", "- [ ] " + T1 + en_marker(k1)], [T1])
case("labelled owner line inside an agent group is raised", EN,
     ["## Tasks", "### [agent]", "- [ ] [owner] " + T1, "- [ ] " + T2],
     ["## Tasks", "### [agent]", "- [ ] [owner] " + T1 + en_marker(k1), "- [ ] " + T2], [T1])
case("prose, blank lines and the rest stay", EN,
     ["# Garden  ", "", "Intro.", "## Tasks", "", "Some prose.", "- [ ] [owner] " + T1, "", "## Log", "Done things."],
     ["# Garden  ", "", "Intro.", "## Tasks", "", "Some prose.", "- [ ] [owner] " + T1 + en_marker(k1), "", "## Log", "Done things."], [T1])
case("a key already raised is stamped, not raised again", EN, ["## Tasks", "- [ ] [owner] " + T1],
     ["## Tasks", "- [ ] [owner] " + T1 + en_marker(k1)], [], known=[k1])
case("known keys do not stop other lines", EN, ["## Tasks", "- [ ] [owner] " + T1, "- [ ] [owner] " + T2],
     ["## Tasks", "- [ ] [owner] " + T1 + en_marker(k1), "- [ ] [owner] " + T2 + en_marker(k2)], [T2], known=[k1])
Z1, Z2 = "繳交社區花園租金", "簽主機合約"
case("zh-hant labelled line", ZH, ["## 待辦", "- [ ] 〔Owner〕" + Z1], ["## 待辦", "- [ ] 〔Owner〕" + Z1 + zh_marker(key(Z1))], [Z1])
case("zh-hant grouped line", ZH, ["## 待辦", "### 〔Owner〕", "- [ ] " + Z2], ["## 待辦", "### 〔Owner〕", "- [ ] " + Z2 + zh_marker(key(Z2))], [Z2])
case("zh-hant trailing ideographic space removed before the marker", ZH, ["## 待辦", "- [ ] 〔Owner〕" + Z1 + "\u3000\u3000"],
     ["## 待辦", "- [ ] 〔Owner〕" + Z1 + zh_marker(key(Z1))], [Z1])
case("zh-hant agent and 待定 lines are not raised", ZH, ["## 待辦", "- [ ] 〔agent〕上傳加重試", "- [ ] 〔待定〕快取用哪個?"],
     ["## 待辦", "- [ ] 〔agent〕上傳加重試", "- [ ] 〔待定〕快取用哪個?"], [])
case("zh-hant with another principal tag", zh("老闆"), ["## 待辦", "- [ ] 〔老闆〕" + Z1],
     ["## 待辦", "- [ ] 〔老闆〕" + Z1 + zh_marker(key(Z1), "老闆")], [Z1])
case("zh-hant mixed-script text", ZH, ["## 待辦", "- [ ] 〔Owner〕續約 example.org 網域"],
     ["## 待辦", "- [ ] 〔Owner〕續約 example.org 網域" + zh_marker(key("續約 example.org 網域"))], ["續約 example.org 網域"])
write("register.json", cases)
