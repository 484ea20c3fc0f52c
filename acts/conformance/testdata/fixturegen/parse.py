from common import *

cases = []


def case(name, prof, lines, tasks, malformed):
    c = {"name": name}
    c.update(prof)
    c["document"] = doc(*lines)
    c["tasks"] = [{"line": t[0], "class": t[1], "text": t[2], "key": t[3] if len(t) > 3 else None} for t in tasks]
    c["malformed"] = malformed
    cases.append(c)


P, A, U = "principal", "agent", "undecided"
k1 = key("Renew the domain")

case("en: the three labels", EN,
     ["## Tasks", "- [ ] [owner] Renew the domain", "- [ ] [agent] Add retries to the uploader", "- [ ] [undecided] Postgres or SQLite?"],
     [(2, P, "Renew the domain"), (3, A, "Add retries to the uploader"), (4, U, "Postgres or SQLite?")], [])
case("en: spec §5.6 example", EN,
     ["## Tasks", "", "- [ ] [owner] Renew the domain before it expires (waiting on owner: task-demo-37863bc42c)",
      "- [ ] [owner] Approve the logo direction", "- [ ] [agent] Add retries to the uploader",
      "- [ ] [undecided] Postgres or SQLite for the cache?", "", "### [owner]", "- [ ] Sign the hosting contract"],
     [(3, P, "Renew the domain before it expires", "task-demo-37863bc42c"), (4, P, "Approve the logo direction"),
      (5, A, "Add retries to the uploader"), (6, U, "Postgres or SQLite for the cache?"), (9, P, "Sign the hosting contract")], [])
case("no tasks section: no tasks, even with checkbox lines", EN,
     ["# Garden", "- [ ] [owner] Sign the allotment renewal", "- [x] done"], [], [])
case("section starts after the first matching heading only", EN,
     ["- [ ] [owner] Before the section", "## Tasks", "- [ ] [owner] In the section"],
     [(3, P, "In the section")], [])
case("heading: trailing whitespace ignored", EN,
     ["## Tasks \t ", "- [ ] [owner] Water the roses"], [(2, P, "Water the roses")], [])
case("heading: case and level must match exactly", EN,
     ["## tasks", "- [ ] [owner] a", "### Tasks", "- [ ] [owner] b", "##Tasks", "- [ ] [owner] c", "## Tasks:", "- [ ] [owner] d"], [], [])
case("section ends at the next level-2 heading", EN,
     ["## Tasks", "- [ ] [owner] Inside", "## Harvest log", "- [ ] [owner] Outside", "- [x] also outside"],
     [(2, P, "Inside")], [])
case("section ends at a level-1 heading", EN,
     ["## Tasks", "- [ ] [owner] Inside", "# Appendix", "- [ ] [owner] Outside"], [(2, P, "Inside")], [])
case("a second tasks heading ends the section", EN,
     ["## Tasks", "- [ ] [owner] First", "## Tasks", "- [ ] [owner] Second"], [(2, P, "First")], [])
case("level-3 to level-6 headings do not end the section", EN,
     ["## Tasks", "### Notes", "#### More notes", "##### Deeper", "###### Deepest", "- [ ] [owner] Still inside"],
     [(6, P, "Still inside")], [])
case("prose that starts with # is not a heading", EN,
     ["## Tasks", "#hashtag prose", "- [ ] [owner] Still inside"], [(3, P, "Still inside")], [])
case("grouped form: ### and #### group headings", EN,
     ["## Tasks", "### [owner]", "- [ ] Sign the lease", "#### [agent]", "- [ ] Draft the calendar", "### [undecided]", "- [ ] Tomatoes or peppers?"],
     [(3, P, "Sign the lease"), (5, A, "Draft the calendar"), (7, U, "Tomatoes or peppers?")], [])
case("group heading: spacing around the label", EN,
     ["## Tasks", "###[owner]", "- [ ] a", "####   [agent]   ", "- [ ] b"], [(3, P, "a"), (5, A, "b")], [])
case("a labelled item's own label wins over the group", EN,
     ["## Tasks", "### [agent]", "- [ ] [owner] Pay the water levy", "- [ ] Order seeds"],
     [(3, P, "Pay the water levy"), (4, A, "Order seeds")], [])
case("unknown group label: its unlabelled items are malformed", EN,
     ["## Tasks", "### [owner]", "- [ ] a", "### [gardener]", "- [ ] b", "- [ ] [agent] c", "### [owner]", "- [ ] d"],
     [(3, P, "a"), (6, A, "c"), (8, P, "d")], [5])
case("a heading without a bracketed label keeps the group (D16)", EN,
     ["## Tasks", "### [agent]", "### Notes", "- [ ] a", "#### Later", "- [ ] b"], [(4, A, "a"), (6, A, "b")], [])
case("a group heading with text after the label is not a group heading", EN,
     ["## Tasks", "### [agent]", "### [owner] things", "- [ ] a"], [(4, A, "a")], [])
case("level-5 bracket heading is no group heading", EN,
     ["## Tasks", "##### [owner]", "- [ ] a"], [], [3])
case("ignored lines keep the current group", EN,
     ["## Tasks", "### [owner]", "", "Some prose.", "> a quote", "- (none)", "  - [ ] indented sub-item", "* [ ] star bullet", "- [ ] Sign it"],
     [(9, P, "Sign it")], [])
case("lines that are not checkbox lines are ignored", EN,
     ["## Tasks", "-[ ] [owner] a", "- [ ][owner] b", "- [y] [owner] c", "- [] [owner] d", "+ [ ] [owner] e", "1. [ ] [owner] f",
      "  - [ ] [owner] g", "\t- [ ] [owner] h", "> - [ ] [owner] i", "- [ ]x"], [], [])
case("ticked boxes are malformed", EN,
     ["## Tasks", "- [x] [owner] Paid the water levy", "- [X] [owner] Paid the rent", "- [x]", "- [x] unlabelled"], [], [2, 3, 4, 5])
case("a ticked line carrying a marker is still malformed", EN,
     ["## Tasks", "- [x] [owner] Renew the domain" + en_marker(k1), "- [ ] [owner] Other"], [(3, P, "Other")], [2])
case("empty bodies are malformed", EN,
     ["## Tasks", "- [ ]", "- [ ]    ", "- [ ] [owner]", "- [ ] [agent]   ", "### [owner]", "- [ ]"], [], [2, 3, 4, 5, 7])
case("unknown labels are malformed", EN,
     ["## Tasks", "- [ ] [boss] Sign it", "- [ ] [Owner] Labels are case-sensitive", "- [ ] [ owner ] Inner spaces", "- [ ] [owner Sign it"],
     [], [2, 3, 4, 5])
case("unlabelled item outside a group is malformed", EN,
     ["## Tasks", "- [ ] Sign the lease", "### [owner]", "- [ ] Sign the other lease"], [(4, P, "Sign the other lease")], [2])
case("grouped text cannot begin with the label opener", EN,
     ["## Tasks", "### [owner]", "- [ ] [link](https://example.org) Read it", "- [ ] Read [the doc]"],
     [(4, P, "Read [the doc]")], [3])
case("a checkbox followed by a tab matches neither form", EN,
     ["## Tasks", "- [ ]\t[owner] Sign it", "### [owner]", "- [ ]\tSign it"], [], [2, 4])
case("no space needed after the label", EN,
     ["## Tasks", "- [ ] [owner]Sign it", "- [ ] [agent]    Draft it"], [(2, P, "Sign it"), (3, A, "Draft it")], [])
case("text is trimmed, internal whitespace kept", EN,
     ["## Tasks", "- [ ] [owner]   Pay   the  water levy   ", "- [ ] [owner] Pay\tthe levy" + en_marker(k1) + "  "],
     [(2, P, "Pay   the  water levy"), (3, P, "Pay\tthe levy", k1)], [])
case("key markers: spacing lenience", EN,
     ["## Tasks", "- [ ] [owner] a (waiting on owner: k-1)", "- [ ] [owner] b(waiting on owner:k-2)",
      "- [ ] [owner] c (waiting on owner:    k-3   )", "- [ ] [owner] d (waiting on owner: k-4)   "],
     [(2, P, "a", "k-1"), (3, P, "b", "k-2"), (4, P, "c", "k-3"), (5, P, "d", "k-4")], [])
case("key markers: Unicode whitespace counts as \\s (D16)", EN,
     ["## Tasks", "- [ ] [owner] a (waiting on owner:\u3000k-1\u3000)", "- [ ] [owner] b (waiting on owner:\u00a0k-2)"],
     [(2, P, "a", "k-1"), (3, P, "b", "k-2")], [])
case("key markers: zero-width space is not whitespace, so the key is invalid", EN,
     ["## Tasks", "- [ ] [owner] a (waiting on owner: \u200bk-1)"], [], [2])
case("a marker-like string that is not at the end is text", EN,
     ["## Tasks", "- [ ] [owner] Pay (waiting on owner: k-1) soon", "- [ ] [owner] (waiting on owner: k-0) then pay (waiting on owner: k-2)"],
     [(2, P, "Pay (waiting on owner: k-1) soon"), (3, P, "(waiting on owner: k-0) then pay", "k-2")], [])
case("marker variants that do not match are text", EN,
     ["## Tasks", "- [ ] [owner] a (waiting on Owner: k-1)", "- [ ] [owner] b (waiting for owner: k-2)", "- [ ] [owner] c [waiting on owner: k-3]",
      "- [ ] [owner] d (waiting on owner: k 4)"],
     [(2, P, "a (waiting on Owner: k-1)"), (3, P, "b (waiting for owner: k-2)"), (4, P, "c [waiting on owner: k-3]"),
      (5, P, "d (waiting on owner: k 4)")], [])
case("keys breaking §6.1 make the line malformed", EN,
     ["## Tasks", "- [ ] [owner] a (waiting on owner: -k)", "- [ ] [owner] b (waiting on owner: a:b)", "- [ ] [owner] c (waiting on owner: k/1)",
      "- [ ] [owner] d (waiting on owner: " + "a" * 129 + ")", "- [ ] [owner] e (waiting on owner: " + "a" * 128 + ")",
      "- [ ] [owner] f (waiting on owner: 續約)"],
     [(6, P, "e", "a" * 128)], [2, 3, 4, 5, 7])
case("a marker without text is malformed", EN,
     ["## Tasks", "- [ ] [owner] (waiting on owner: k-1)", "- [ ] [owner]    (waiting on owner: k-2)"], [], [2, 3])
case("agent and undecided lines may carry keys", EN,
     ["## Tasks", "- [ ] [agent] a (waiting on owner: k-1)", "### [undecided]", "- [ ] b (waiting on owner: k-2)"],
     [(2, A, "a", "k-1"), (4, U, "b", "k-2")], [])
case("grouped keyed line", EN,
     ["## Tasks", "### [owner]", "- [ ] Renew the domain" + en_marker(k1)], [(3, P, "Renew the domain", k1)], [])
case("placeholder and prose are ignored", EN,
     ["## Tasks", "- (none)", "", "Nothing to do right now."], [], [])
case("a task text may contain brackets and colons", EN,
     ["## Tasks", "- [ ] [owner] Sign: the [draft] lease (v2)"], [(2, P, "Sign: the [draft] lease (v2)")], [])
case("trailing Unicode whitespace is removed before classifying", EN,
     ["## Tasks\u3000", "- [ ] [owner]\u3000\u3000", "- [ ] [owner] Pay\u00a0\u2003"], [(3, P, "Pay")], [2])
case("many malformed lines, one task", EN,
     ["## Tasks"] + ["- [x] [owner] done %d" % i for i in range(20)] + ["- [ ] [owner] left"],
     [(22, P, "left")], list(range(2, 22)))

case("ideographic space after the label", EN,
     ["## Tasks", "- [ ] [owner]\u3000Sign it", "- [ ] [agent]\u00a0\u00a0Draft it"], [(2, P, "Sign it"), (3, A, "Draft it")], [])
case("checkbox followed by an ideographic space is a checkbox line", EN,
     ["## Tasks", "- [ ]\u3000[owner] Sign it", "- [x]\u3000done"], [], [2, 3])
case("CRLF line ends", EN,
     ["## Tasks\r", "- [ ] [owner] Sign it\r", "### [agent]\r", "- [ ] Draft it" + en_marker("k-1") + "\r", "- [x] done\r"],
     [(2, P, "Sign it"), (4, A, "Draft it", "k-1")], [5])
case("a document that is only the heading", EN, ["## Tasks"], [], [])

# zh-hant
kz = key("繳交社區花園租金")
case("zh-hant: spec §5.7 example", ZH,
     ["## 待辦", "", "- [ ] 〔Owner〕續約網域(等 Owner:task-demo-544fefce49)", "- [ ] 〔agent〕上傳加重試", "- [ ] 〔待定〕快取用 Postgres 還是 SQLite?",
      "", "### 〔Owner〕", "- [ ] 簽主機合約"],
     [(3, P, "續約網域", "task-demo-544fefce49"), (4, A, "上傳加重試"), (5, U, "快取用 Postgres 還是 SQLite?"), (8, P, "簽主機合約")], [])
case("zh-hant: marker widths and spacing", ZH,
     ["## 待辦", "- [ ] 〔Owner〕甲(等 Owner:k-1)", "- [ ] 〔Owner〕乙（等 Owner：k-2）", "- [ ] 〔Owner〕丙(等Owner:k-3)",
      "- [ ] 〔Owner〕丁（等 Owner: k-4 ）", "- [ ] 〔Owner〕戊(等 Owner：\u3000k-5)  "],
     [(2, P, "甲", "k-1"), (3, P, "乙", "k-2"), (4, P, "丙", "k-3"), (5, P, "丁", "k-4"), (6, P, "戊", "k-5")], [])
case("zh-hant: markers that do not match are text", ZH,
     ["## 待辦", "- [ ] 〔Owner〕甲(等  Owner:k-1)", "- [ ] 〔Owner〕乙(等 owner:k-2)", "- [ ] 〔Owner〕丙(等 Owner:k-3)了", "- [ ] 〔Owner〕丁(待 Owner:k-4)"],
     [(2, P, "甲(等  Owner:k-1)"), (3, P, "乙(等 owner:k-2)"), (4, P, "丙(等 Owner:k-3)了"), (5, P, "丁(待 Owner:k-4)")], [])
case("zh-hant: the label is the principal tag", zh("老闆"),
     ["## 待辦", "- [ ] 〔老闆〕繳租金(等 老闆:k-1)", "- [ ] 〔Owner〕繳水費", "### 〔老闆〕", "- [ ] 簽約"],
     [(2, P, "繳租金", "k-1"), (5, P, "簽約")], [3])
case("zh-hant: the tag is regex-escaped", zh("A.B"),
     ["## 待辦", "- [ ] 〔A.B〕甲(等 A.B:k-1)", "- [ ] 〔A.B〕乙(等 AxB:k-2)"],
     [(2, P, "甲", "k-1"), (3, P, "乙(等 AxB:k-2)")], [])
case("zh-hant: en labels and heading are not this profile's", ZH,
     ["## Tasks", "- [ ] [owner] a", "## 待辦", "- [ ] [owner] b", "- [ ] 〔owner〕c", "- [ ] 〔agent〕d"],
     [(6, A, "d")], [4, 5])
case("zh-hant: grouped form and 待定", ZH,
     ["## 待辦", "### 〔待定〕", "- [ ] 種番茄還是辣椒?", "#### 〔agent〕", "- [ ] 整理行事曆", "### 〔園丁〕", "- [ ] 澆水"],
     [(3, U, "種番茄還是辣椒?"), (5, A, "整理行事曆")], [7])
case("zh-hant: grouped text cannot begin with 〔", ZH,
     ["## 待辦", "### 〔Owner〕", "- [ ] 〔注意〕繳租金", "- [ ] 繳租金" + zh_marker(kz)], [(4, P, "繳租金", kz)], [2 + 1])
case("zh-hant: ticked, empty and placeholder lines", ZH,
     ["## 待辦", "- (無)", "- [x] 〔Owner〕已繳", "- [ ] 〔Owner〕", "- [ ] 〔Owner〕(等 Owner:k-1)"], [], [3, 4, 5])
case("zh-hant: ideographic spaces trimmed from the text", ZH,
     ["## 待辦", "- [ ] 〔Owner〕\u3000繳交\u3000社區花園租金\u3000" + zh_marker(kz)], [(2, P, "繳交\u3000社區花園租金", kz)], [])

write("parse.json", cases)
