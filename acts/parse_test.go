package acts

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// kinds renders what the reader made of each line: one word per line, with
// class and key for tasks, so a table can state a whole document at once.
func kinds(d *Document) string {
	var out []string
	for _, l := range d.Lines {
		s := l.Kind.String()
		switch l.Kind {
		case KindTask:
			s = l.Class + ":" + l.TaskText
			if l.Key != "" {
				s += "#" + l.Key
			}
		case KindGroup:
			s = "group:" + l.Group
		case KindMalformed:
			s = "malformed"
			if l.Key != "" {
				s += "#" + l.Key
			}
		case KindIgnored:
			if l.Placeholder {
				s = "placeholder"
			}
		}
		out = append(out, s)
	}
	return strings.Join(out, " | ")
}

func TestClassify(t *testing.T) {
	t.Parallel()
	en, zh := enProfile(t), zhProfile(t)
	for _, c := range []struct {
		name string
		p    Profile
		doc  string
		want string
	}{
		{"no section", en, "# T\n- [ ] [owner] a\n", "outside | outside"},
		{"heading with trailing space", en, "## Tasks  \t\n- [ ] [owner] a\n", "heading | principal:a"},
		{"heading must be exact", en, "## tasks\n- [ ] [owner] a\n", "outside | outside"},
		{"level-3 Tasks is not the heading", en, "### Tasks\n- [ ] [owner] a\n", "outside | outside"},
		{"first heading wins, second ends it", en, "## Tasks\n- [ ] [owner] a\n## Tasks\n- [ ] [owner] b\n", "heading | principal:a | outside | outside"},
		{"section ends at # and ##", en, "## Tasks\n- [ ] [owner] a\n# Next\n- [ ] [owner] b\n", "heading | principal:a | outside | outside"},
		{"### and #### do not end it", en, "## Tasks\n### Notes\n#### More\n- [ ] [owner] a\n", "heading | ignored | ignored | principal:a"},
		{"##### is ignored", en, "## Tasks\n##### [agent]\n- [ ] a\n", "heading | ignored | malformed"},
		{"#hashtag is prose", en, "## Tasks\n#hashtag\n- [ ] [owner] a\n", "heading | ignored | principal:a"},
		{"all labels", en, "## Tasks\n- [ ] [owner] a\n- [ ] [agent] b\n- [ ] [undecided] c?\n", "heading | principal:a | agent:b | undecided:c?"},
		{"no space after label", en, "## Tasks\n- [ ] [owner]a\n", "heading | principal:a"},
		{"label is case sensitive", en, "## Tasks\n- [ ] [Owner] a\n", "heading | malformed"},
		{"unknown label", en, "## Tasks\n- [ ] [boss] a\n", "heading | malformed"},
		{"empty body", en, "## Tasks\n- [ ]\n- [ ]   \n- [ ] [owner]\n- [ ] [owner]   \n", "heading | malformed | malformed | malformed | malformed"},
		{"ticked boxes", en, "## Tasks\n- [x] [owner] a\n- [X] [owner] b\n- [x]\n", "heading | malformed | malformed | malformed"},
		{"ticked keeps its key (D16)", en, "## Tasks\n- [x] [owner] a (waiting on owner: k1)\n", "heading | malformed#k1"},
		{"not checkboxes", en, "## Tasks\n-[ ] a\n- [ ]a\n- [y] a\n* [ ] [owner] a\n  - [ ] [owner] a\n> - [ ] [owner] a\n- [] a\n", "heading | ignored | ignored | ignored | ignored | ignored | ignored | ignored"},
		{"tab after the box", en, "## Tasks\n- [ ]\t[owner] a\n", "heading | malformed"},
		{"unlabelled outside group", en, "## Tasks\n- [ ] a\n", "heading | malformed"},
		{"grouped", en, "## Tasks\n### [owner]\n- [ ] a\n#### [agent]\n- [ ] b\n", "heading | group:principal | principal:a | group:agent | agent:b"},
		{"group heading spacing", en, "## Tasks\n###[owner]  \n- [ ] a\n####   [undecided]\n- [ ] b\n", "heading | group:principal | principal:a | group:undecided | undecided:b"},
		{"unknown group", en, "## Tasks\n### [owner]\n### [boss]\n- [ ] a\n", "heading | group:principal | group: | malformed"},
		{"label with inner spaces is unknown", en, "## Tasks\n### [ owner ]\n- [ ] a\n", "heading | group: | malformed"},
		{"heading without label keeps the group (D16)", en, "## Tasks\n### [agent]\n### Notes\n- [ ] a\n", "heading | group:agent | ignored | agent:a"},
		{"ignored lines keep the group", en, "## Tasks\n### [owner]\n\nprose\n- (none)\n  - [ ] sub\n- [ ] a\n", "heading | group:principal | ignored | ignored | placeholder | ignored | principal:a"},
		{"labelled wins over group", en, "## Tasks\n### [agent]\n- [ ] [owner] a\n- [ ] b\n", "heading | group:agent | principal:a | agent:b"},
		{"grouped text cannot begin with [", en, "## Tasks\n### [owner]\n- [ ] [link](x) a\n", "heading | group:principal | malformed"},
		{"grouped text with brackets later", en, "## Tasks\n### [owner]\n- [ ] read [the doc]\n", "heading | group:principal | principal:read [the doc]"},
		{"keyed", en, "## Tasks\n- [ ] [owner] Pay (waiting on owner: task-p-0123456789)\n", "heading | principal:Pay#task-p-0123456789"},
		{"marker in the middle is text", en, "## Tasks\n- [ ] [owner] Pay (waiting on owner: k1) today\n", "heading | principal:Pay (waiting on owner: k1) today"},
		{"invalid key", en, "## Tasks\n- [ ] [owner] Pay (waiting on owner: -bad)\n- [ ] [owner] Pay (waiting on owner: a:b)\n", "heading | malformed | malformed"},
		{"key too long", en, "## Tasks\n- [ ] [owner] Pay (waiting on owner: a" + strings.Repeat("b", 128) + ")\n", "heading | malformed"},
		{"marker only", en, "## Tasks\n- [ ] [owner] (waiting on owner: k1)\n", "heading | malformed#k1"},
		{"agent line keyed", en, "## Tasks\n- [ ] [agent] a (waiting on owner: k1)\n", "heading | agent:a#k1"},
		{"text keeps inner spaces", en, "## Tasks\n- [ ] [owner]   a   b   \n", "heading | principal:a   b"},
		{"unicode trailing space", en, "## Tasks\u3000\n- [ ] [owner] a\u3000\u00a0\n", "heading | principal:a"},
		{"zh labelled and grouped", zh, "## 待辦\n- [ ] 〔Owner〕續約(等 Owner:k1)\n- [ ] 〔agent〕加重試\n- [ ] 〔待定〕選哪個?\n### 〔Owner〕\n- [ ] 簽約\n", "heading | principal:續約#k1 | agent:加重試 | undecided:選哪個? | group:principal | principal:簽約"},
		{"zh full-width marker", zh, "## 待辦\n- [ ] 〔Owner〕續約（等 Owner：k1）\n", "heading | principal:續約#k1"},
		{"zh en label is unknown", zh, "## 待辦\n- [ ] [owner] a\n", "heading | malformed"},
		{"zh other tag is unknown", zh, "## 待辦\n- [ ] 〔老闆〕a\n", "heading | malformed"},
		{"zh placeholder", zh, "## 待辦\n- (無)\n", "heading | placeholder"},
		{"zh grouped cannot begin with 〔", zh, "## 待辦\n### 〔agent〕\n- [ ] 〔註〕a\n", "heading | group:agent | malformed"},
		{"CRLF", en, "## Tasks\r\n- [ ] [owner] a\r\n", "heading | principal:a"},
		{"no final newline", en, "## Tasks\n- [ ] [owner] a", "heading | principal:a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := Parse([]byte(c.doc), c.p)
			if err != nil {
				t.Fatal(err)
			}
			if got := kinds(d); got != c.want {
				t.Errorf("\n got %s\nwant %s", got, c.want)
			}
			if !bytes.Equal(d.Bytes(), []byte(c.doc)) {
				t.Errorf("Bytes() does not give the input back")
			}
			for _, l := range d.Malformed() {
				if l.Reason == "" {
					t.Errorf("line %d: malformed without a reason", l.Num)
				}
			}
		})
	}
}

func TestMalformedReasons(t *testing.T) {
	t.Parallel()
	en := enProfile(t)
	doc := "## Tasks\n- [x] [owner] a\n- [ ] [boss] a\n- [ ]\n- [ ] a\n### [boss]\n- [ ] b\n- [ ] [owner] (waiting on owner: k)\n- [ ] [owner] a (waiting on owner: a:b)\n- [ ] [owner\n"
	ps, err := Lint([]byte(doc), en)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		line int
		has  string
	}{
		{2, "ticked box"}, {3, "unknown label [boss]"}, {4, "empty task"}, {5, "outside a group"},
		{7, "unknown label"}, {8, "no task text"}, {9, "not a valid key"}, {10, "never closed"},
	}
	if len(ps) != len(want) {
		t.Fatalf("Lint: %v", ps)
	}
	for i, w := range want {
		if ps[i].Line != w.line || !strings.Contains(ps[i].Reason, w.has) {
			t.Errorf("problem %d = %v; want line %d with %q", i, ps[i], w.line, w.has)
		}
	}
}

// TestNearMissesReported: a task for the principal written almost right is
// ignored, as §5.3 says, and reported, so nobody waits on an act that was
// never raised (issue 17: "tp acts lint ignores -[ ] [owner] … silently").
// The near misses of the near miss — a sub-list or prose that mentions the
// label later, an agent's line — are not reported.
func TestNearMissesReported(t *testing.T) {
	t.Parallel()
	en := enProfile(t)
	for _, tc := range []struct {
		line   string
		report bool
	}{
		{"-[ ] [owner] squashed", true},
		{"- [ ][owner] no space after the box", true},
		{"  - [ ] [owner] indented", true},
		{"\t- [ ] [owner] tab-indented", true},
		{"* [ ] [owner] star", true},
		{"+ [ ] [owner] plus", true},
		{"1. [ ] [owner] numbered", true},
		{"2) [ ] [owner] numbered", true},
		{"- [] [owner] empty box", true},
		{"- [owner] no box", true},
		{"[ ] [owner] no dash", true},
		{"-  [ ] [owner] two spaces", true},
		{"- [ ] [owner] the real thing", false},
		{"  - a sub-list that mentions [owner] later", false},
		{"See [owner] in prose", false},
		{"-[ ] [agent] an agent's line", false},
		{"* [ ] plain item", false},
		{"- (none)", false},
		{"> - [ ] [owner] quoted", false},
	} {
		d, err := Parse([]byte("## Tasks\n"+tc.line+"\n"), en)
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, p := range d.Problems() {
			if p.Ignored && p.Line == 2 {
				got = true
				if !strings.Contains(p.Reason, `"- [ ] [owner] …"`) {
					t.Errorf("%q: reason %q does not show the right form", tc.line, p.Reason)
				}
			}
		}
		if got != tc.report {
			t.Errorf("%q: reported %v, want %v", tc.line, got, tc.report)
		}
	}
	// Outside the tasks section nothing is a task, so nothing is a near miss.
	d, _ := Parse([]byte("-[ ] [owner] before\n## Tasks\n## Other\n-[ ] [owner] after\n"), en)
	if ps := d.Problems(); len(ps) != 0 {
		t.Errorf("outside the section: %v", ps)
	}
}

func TestNotUTF8(t *testing.T) {
	t.Parallel()
	doc := []byte("## Tasks\n- [ ] [owner] a\n- [ ] [owner] b\xff\n")
	_, err := Parse(doc, enProfile(t))
	var nu *NotUTF8Error
	if !errors.As(err, &nu) || nu.Line != 3 || nu.Offset != len("## Tasks\n- [ ] [owner] a\n- [ ] [owner] b") {
		t.Fatalf("Parse: %v", err)
	}
	if !strings.Contains(err.Error(), "not UTF-8") || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("message: %v", err)
	}
	if _, err := Lint(doc, enProfile(t)); err == nil {
		t.Error("Lint must refuse too")
	}
}

func TestBOMKept(t *testing.T) {
	t.Parallel()
	doc := []byte("\xef\xbb\xbf## Tasks\n- [ ] [owner] a\n")
	d, err := Parse(doc, enProfile(t))
	if err != nil || !d.HasSection || len(d.Tasks()) != 1 || !bytes.Equal(d.Bytes(), doc) {
		t.Fatalf("BOM: %v %s", err, kinds(d))
	}
}

func TestMixedProfiles(t *testing.T) {
	t.Parallel()
	en, zh := enProfile(t), zhProfile(t)
	// A zh-hant document read as en: no section, and the heading says why.
	ps, _ := Lint([]byte("# 專案\n## 待辦\n- [ ] 〔Owner〕續約\n"), en)
	if len(ps) != 1 || ps[0].Line != 2 || !strings.Contains(ps[0].Reason, "--profile zh-hant") {
		t.Errorf("zh read as en: %v", ps)
	}
	// zh-hant lines inside an en section.
	ps, _ = Lint([]byte("## Tasks\n- [ ] [owner] a\n- [ ] 〔Owner〕續約\n### [owner]\n- [ ] 續約(等 Owner:k1)\n"), en)
	if len(ps) != 2 || ps[0].Line != 3 || !strings.Contains(ps[0].Reason, "zh-hant") || ps[1].Line != 5 || !strings.Contains(ps[1].Reason, "zh-hant key marker") {
		t.Errorf("zh lines in en: %v", ps)
	}
	// en lines inside a zh-hant section, with an en heading too.
	ps, _ = Lint([]byte("## 待辦\n- [ ] [owner] a (waiting on owner: k1)\n## Tasks\n"), zh)
	if len(ps) != 2 || ps[0].Line != 2 || !strings.Contains(ps[0].Reason, "en profile") || ps[1].Line != 3 {
		t.Errorf("en lines in zh: %v", ps)
	}
	// A clean document has no problems.
	if ps, _ := Lint([]byte("## Tasks\n- [ ] [owner] a\n"), en); len(ps) != 0 {
		t.Errorf("clean: %v", ps)
	}
}

func TestLintThousandsOfMalformedLines(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("## Tasks\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "- [x] [owner] done %d\n- [ ] [boss] who %d\n", i, i)
	}
	ps, err := Lint([]byte(b.String()), enProfile(t))
	if err != nil || len(ps) != 10000 || ps[0].Line != 2 || ps[9999].Line != 10001 {
		t.Fatalf("Lint: %d problems, %v", len(ps), err)
	}
}

// FuzzParse: any input is read without panicking; valid UTF-8 gives back
// its own bytes, every task has text and a valid key or none, and every
// malformed line has a reason.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"## Tasks\n- [ ] [owner] a\n",
		"## Tasks\r\n- [ ] [owner] a (waiting on owner: k)\r\n### [agent]\r\n- [ ] b",
		"## 待辦\n- [ ] 〔Owner〕續約（等 Owner：k1）\n### 〔待定〕\n- [ ] x\n- (無)\n",
		"## Tasks\n- [x] a\n- [ ]\n- [ ] [boss] x\n## Next\n",
		"\xef\xbb\xbf## Tasks\n- [ ] [owner] a\u3000\n",
		"## Tasks\n- [ ] [owner] a\xff\n",
		"",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	en, zh := enProfile(f), zhProfile(f)
	f.Fuzz(func(t *testing.T, doc []byte, useZh bool) {
		p := en
		if useZh {
			p = zh
		}
		d, err := Parse(doc, p)
		if err != nil {
			var nu *NotUTF8Error
			if !errors.As(err, &nu) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if !bytes.Equal(d.Bytes(), doc) {
			t.Fatalf("round trip lost bytes")
		}
		for _, l := range d.Lines {
			switch l.Kind {
			case KindTask:
				if l.TaskText == "" || trimWS(l.TaskText) != l.TaskText || (l.Key != "" && !ValidKey(l.Key)) || l.Class == "" {
					t.Fatalf("bad task %+v", l)
				}
			case KindMalformed:
				if l.Reason == "" {
					t.Fatalf("malformed without reason %+v", l)
				}
			}
		}
		_ = d.Problems()
	})
}

// The hand-written matcher for labelled items is the §5.3 regular
// expression, ^- \[ \] O(L)C\s*(.+)$, exactly.
func FuzzLabelledMatchesRegexp(f *testing.F) {
	for _, s := range []string{"- [ ] [owner] a", "- [ ] [owner]", "- [ ] [owner]\u3000a", "- [ ] [agent]]x", "- [ ] [[owner] a", "- [ ] 〔Owner〕續約", "- [ ] 〔待定〕", "- [ ] [undecided]  x y"} {
		f.Add(s)
	}
	en, zh := enProfile(f), zhProfile(f)
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsRune(line, '\n') {
			return // lines never hold a line feed
		}
		line = trimRightWS(line)
		for _, p := range []Profile{en, zh} {
			class, body, ok := p.labelled(line)
			m := p.labelledRe.FindStringSubmatch(line)
			if ok != (m != nil) || ok && (class != p.ClassOfLabel(m[1]) || body != m[2]) {
				t.Fatalf("%s %q: hand %q %q %v, regexp %q", p.Name, line, class, body, ok, m)
			}
		}
	})
}
