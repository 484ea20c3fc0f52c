package acts

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// LineKind is what §5.3 makes of one line of a document.
type LineKind uint8

const (
	// KindOutside: the line is not in the tasks section (or is its heading).
	KindOutside LineKind = iota
	// KindHeading: the line that starts the tasks section.
	KindHeading
	// KindGroup: a group heading (### [owner]); not a task.
	KindGroup
	// KindIgnored: blank lines, the placeholder, prose, quotes, other
	// headings and indented lines; they do not change the current group.
	KindIgnored
	// KindTask: a labelled or grouped item.
	KindTask
	// KindMalformed: a checkbox line that is not a task; Reason says why.
	KindMalformed
)

func (k LineKind) String() string {
	return [...]string{"outside", "heading", "group", "ignored", "task", "malformed"}[k]
}

// Line is one line of a state document and what the reader made of it.
type Line struct {
	Num  int    // 1-based line number
	Text string // the line without its line end
	End  string // "\n", "\r\n", "\r" (a bare CR) or "" (last line without a line end)
	Kind LineKind

	// Group headings: Group is the class the group becomes ("" when the
	// label is unknown: the group becomes unknown).
	Group string

	// Tasks: the assignee class, body (after the label), text (the body
	// before the marker, trimmed) and key ("" when there is no marker).
	Class    string
	Grouped  bool // grouped form (class from the group heading)
	Body     string
	TaskText string
	Key      string

	// Malformed lines: why, in words a person can act on. Key is set when
	// the line still carries a valid marker (D16: a ticked line keeps its
	// key, so it gets no vanish claim and striking the key deletes it).
	Reason string

	Placeholder bool // an ignored line equal to the placeholder
}

// Checkbox reports whether the line is a task or malformed checkbox line
// of the tasks section.
func (l *Line) Checkbox() bool { return l.Kind == KindTask || l.Kind == KindMalformed }

// Problem is something in a document a person should fix.
type Problem struct {
	Line   int    `json:"line"`
	Reason string `json:"reason"`
	// Ignored marks a line readers ignore (it is no task, so not malformed
	// by §5.3) that looks like a task for the principal written almost right.
	Ignored bool `json:"ignored,omitempty"`
}

func (p Problem) String() string { return fmt.Sprintf("line %d: %s", p.Line, p.Reason) }

// Document is a parsed state document. Rendering it back with [Document.Bytes]
// gives the bytes it was parsed from.
type Document struct {
	Profile Profile
	BOM     bool // the document began with a UTF-8 byte order mark, kept on write
	Lines   []Line

	// Section: HasSection reports a tasks section; Heading is the index (in
	// Lines) of its heading and End the index just past its body.
	HasSection bool
	Heading    int
	End        int

	// Mixed lists signs that the document was written for another profile.
	// ForeignHeading is the line number of another profile's tasks heading
	// (0: none), ForeignProfile that profile's name.
	Mixed          []Problem
	ForeignHeading int
	ForeignProfile string

	// NearMisses are ignored lines of the section that look like a task
	// for the principal written almost right (detectNearMisses).
	NearMisses []Problem
}

// NotUTF8Error refuses a document that is not valid UTF-8.
type NotUTF8Error struct {
	Line   int
	Offset int // byte offset in the document
}

func (e *NotUTF8Error) Error() string {
	return fmt.Sprintf("acts: the document is not UTF-8 (line %d, byte offset %d); state documents must be UTF-8 text", e.Line, e.Offset)
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// Parse reads a state document with profile p (§5.2–§5.4). It refuses a
// document that is not UTF-8; everything else is classified, never refused.
func Parse(doc []byte, p Profile) (*Document, error) {
	if p.marker == nil {
		return nil, fmt.Errorf("acts: profile %q was not built with ProfileByName", p.Name)
	}
	d := &Document{Profile: p}
	if bytes.HasPrefix(doc, bom) {
		d.BOM = true
		doc = doc[len(bom):]
	}
	if !utf8.Valid(doc) {
		off := 0
		for off < len(doc) {
			r, n := utf8.DecodeRune(doc[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		line := 1 + bytes.Count(doc[:off], []byte("\n"))
		if d.BOM {
			off += len(bom)
		}
		return nil, &NotUTF8Error{Line: line, Offset: off}
	}
	d.Lines = splitLines(string(doc))
	d.classify()
	d.detectMixed()
	d.detectNearMisses()
	return d, nil
}

// splitLines splits s into lines, keeping each line's end. A line ends at
// LF, CRLF or a bare CR — CommonMark's line endings, and what a person sees:
// "One\r- [ ] [owner] Two" is two lines on a screen, so it is two lines
// here, and a strike of the second never deletes the first. A final line
// without a line end is kept; an empty document has no lines.
func splitLines(s string) []Line {
	lines := make([]Line, 0, strings.Count(s, "\n")+1)
	n := 0
	for len(s) > 0 {
		n++
		i := strings.IndexByte(s, '\n')
		limit := i
		if limit < 0 {
			limit = len(s)
		}
		if j := strings.IndexByte(s[:limit], '\r'); j >= 0 && j < limit-1 || j >= 0 && i < 0 {
			// A bare CR: one not followed by the LF that ends this line.
			lines = append(lines, Line{Num: n, Text: s[:j], End: "\r"})
			s = s[j+1:]
			continue
		}
		if i < 0 {
			lines = append(lines, Line{Num: n, Text: s})
			break
		}
		text, end := s[:i], "\n"
		if i > 0 && s[i-1] == '\r' {
			text, end = s[:i-1], "\r\n"
		}
		lines = append(lines, Line{Num: n, Text: text, End: end})
		s = s[i+1:]
	}
	return lines
}

// endsSection reports whether a line (trailing whitespace removed) ends the
// tasks section: a level-1 or level-2 ATX heading (§5.2 "begins with # or ## ").
func endsSection(t string) bool {
	if strings.HasPrefix(t, "## ") || strings.HasPrefix(t, "# ") || t == "#" || t == "##" {
		return true
	}
	// A tab (or other whitespace) after the hashes is a heading too.
	for _, pre := range []string{"##", "#"} {
		if strings.HasPrefix(t, pre) {
			r, _ := utf8.DecodeRuneInString(t[len(pre):])
			return isWS(r)
		}
	}
	return false
}

// checkboxPrefix reports whether t begins with "- [ ]", "- [x]" or "- [X]"
// followed by whitespace or the end of the line (§5.3).
func checkboxPrefix(t string) (checked, ok bool) {
	if len(t) < 5 || t[0] != '-' || t[1] != ' ' || t[2] != '[' || t[4] != ']' {
		return false, false
	}
	switch t[3] {
	case ' ':
	case 'x', 'X':
		checked = true
	default:
		return false, false
	}
	if len(t) == 5 {
		return checked, true
	}
	r, _ := utf8.DecodeRuneInString(t[5:])
	return checked, isWS(r)
}

// classify runs §5.2 and §5.3 over every line.
func (d *Document) classify() {
	p := d.Profile
	d.Heading, d.End = -1, -1
	for i := range d.Lines {
		if trimRightWS(d.Lines[i].Text) == p.Heading {
			d.HasSection, d.Heading = true, i
			d.Lines[i].Kind = KindHeading
			break
		}
	}
	if !d.HasSection {
		return
	}
	d.End = len(d.Lines)
	group := "" // "" = empty, groupUnknown, or a class
	for i := d.Heading + 1; i < len(d.Lines); i++ {
		l := &d.Lines[i]
		t := trimRightWS(l.Text)
		if endsSection(t) {
			d.End = i
			break
		}
		group = p.classifyLine(l, t, group)
	}
}

const groupUnknown = "\x00unknown"

// classifyLine classifies one line of the section (t is the line with
// trailing whitespace removed) and returns the new current group.
func (p Profile) classifyLine(l *Line, t, group string) string {
	if strings.HasPrefix(t, "###") {
		if m := p.groupHead.FindStringSubmatch(t); m != nil {
			l.Kind = KindGroup
			l.Group = p.ClassOfLabel(m[1])
			if l.Group == "" {
				return groupUnknown
			}
			return l.Group
		}
		// D16: a heading without a bracketed label is ignored.
		l.Kind = KindIgnored
		return group
	}
	checked, ok := checkboxPrefix(t)
	if !ok {
		l.Kind = KindIgnored
		l.Placeholder = t == p.Placeholder
		return group
	}
	l.Kind = KindMalformed
	if checked {
		l.Reason = fmt.Sprintf("ticked box: delete the line instead of ticking it (done acts are settled by the principal side, not ticked)")
		p.carried(l, t[5:])
		return group
	}
	if class, body, ok := p.labelled(t); ok {
		p.task(l, class, body, false)
		return group
	}
	rest := t[5:]
	if rest == "" || trimWS(rest) == "" {
		l.Reason = "empty task: write what is to be done after the checkbox, e.g. - [ ] " + p.LabelOpen + p.Labels.Principal + p.LabelClose + p.LabelSeparator + "…"
		return group
	}
	if !strings.HasPrefix(rest, " ") {
		l.Reason = "the checkbox must be followed by one space, as in \"- [ ] \""
		p.carried(l, rest)
		return group
	}
	body := rest[1:]
	if strings.HasPrefix(body, p.LabelOpen) {
		label := body[len(p.LabelOpen):]
		if j := strings.Index(label, p.LabelClose); j >= 0 {
			label = label[:j]
			after := trimWS(body[len(p.LabelOpen)+j+len(p.LabelClose):])
			if p.ClassOfLabel(label) != "" && after == "" {
				l.Reason = fmt.Sprintf("empty task: write what is to be done after %s%s%s", p.LabelOpen, label, p.LabelClose)
				return group
			}
			l.Reason = fmt.Sprintf("unknown label %s%s%s: use one of %s (in the grouped form a task cannot begin with %q)", p.LabelOpen, label, p.LabelClose, p.labelList(), p.LabelOpen)
		} else {
			l.Reason = fmt.Sprintf("label opened with %q but never closed with %q: use one of %s", p.LabelOpen, p.LabelClose, p.labelList())
		}
		p.carried(l, body)
		return group
	}
	switch group {
	case "":
		l.Reason = fmt.Sprintf("unlabelled item outside a group: add a label, e.g. - [ ] %s%s%s%s…", p.LabelOpen, p.Labels.Principal, p.LabelClose, p.LabelSeparator)
		p.carried(l, body)
	case groupUnknown:
		l.Reason = fmt.Sprintf("unlabelled item under a group heading with an unknown label: fix the heading to one of %s or label the item", p.labelList())
		p.carried(l, body)
	default:
		p.task(l, group, body, true)
	}
	return group
}

// labelled matches §5.3's labelled item, ^- \[ \] O(L)C\s*(.+)$, on a line
// without trailing whitespace, by hand (it runs on every checkbox line).
// Labels cannot contain C (§5.1), so the label ends at the first C.
func (p Profile) labelled(t string) (class, body string, ok bool) {
	rest, found := strings.CutPrefix(t, "- [ ] "+p.LabelOpen)
	if !found {
		return "", "", false
	}
	j := strings.Index(rest, p.LabelClose)
	if j < 0 {
		return "", "", false
	}
	class = p.ClassOfLabel(rest[:j])
	body = strings.TrimLeftFunc(rest[j+len(p.LabelClose):], isWS)
	if class == "" || body == "" {
		return "", "", false
	}
	return class, body, true
}

// MaxTaskTextBytes bounds a task's text. A record carries the text (terms,
// restore_text), escaped as JSON, and a reader takes records of at most
// maxRecordFile bytes: a line whose record would pass that is reported as
// malformed instead of raised, so the registrar never writes a record its
// own reader refuses (issue 11).
const MaxTaskTextBytes = 64 << 10

// task finishes a labelled or grouped item: marker, text, §6.1 (§5.3).
func (p Profile) task(l *Line, class, body string, grouped bool) {
	l.Class, l.Body, l.Grouped = class, body, grouped
	text := body
	key, start, found := p.FindMarker(body)
	if found {
		text = body[:start]
	}
	text = trimWS(text)
	switch {
	case found && !ValidKey(key):
		l.Reason = fmt.Sprintf("the key marker holds %q, which is not a valid key (§6.1: letters, digits, '.', '_', '-'); only the registrar writes markers: restore the marker it wrote or remove it", key)
	case text == "" && found:
		l.Reason = "the line has a key marker but no task text: restore the text before the marker"
		l.Key = key
	case text == "":
		l.Reason = "empty task: write what is to be done"
	case len(text) > MaxTaskTextBytes:
		// Its raised record would be larger than any record a reader takes
		// (maxRecordFile): the act would vanish from every reader. Never
		// raised; a marker it carries still holds its key (D16).
		l.Reason = fmt.Sprintf("the task text is %d bytes, more than the %d a task line may hold: shorten it (put the detail in a linked file)", len(text), MaxTaskTextBytes)
		if found {
			l.Key = key
		}
	default:
		l.Kind = KindTask
		l.TaskText = text
		if found {
			l.Key = key
		}
		return
	}
	l.Kind = KindMalformed
}

// carried records the key a malformed line still carries, if its tail ends
// in a valid marker (D16).
func (p Profile) carried(l *Line, tail string) {
	if key, _, ok := p.FindMarker(tail); ok && ValidKey(key) {
		l.Key = key
	}
}

// Tasks returns the task lines of the section, in document order.
func (d *Document) Tasks() []*Line {
	var out []*Line
	for i := range d.Lines {
		if d.Lines[i].Kind == KindTask {
			out = append(out, &d.Lines[i])
		}
	}
	return out
}

// Malformed returns the malformed lines of the section, in document order.
func (d *Document) Malformed() []*Line {
	var out []*Line
	for i := range d.Lines {
		if d.Lines[i].Kind == KindMalformed {
			out = append(out, &d.Lines[i])
		}
	}
	return out
}

// Bytes renders the document: the bytes it was parsed from, with whatever
// edits the registrar made.
func (d *Document) Bytes() []byte {
	n := 0
	for i := range d.Lines {
		n += len(d.Lines[i].Text) + len(d.Lines[i].End)
	}
	var b bytes.Buffer
	b.Grow(n + len(bom))
	if d.BOM {
		b.Write(bom)
	}
	for i := range d.Lines {
		b.WriteString(d.Lines[i].Text)
		b.WriteString(d.Lines[i].End)
	}
	return b.Bytes()
}

// Lint returns what a person must fix in doc: every malformed line of the
// tasks section with its reason, and signs of another profile (§5.3
// "SHOULD report it so a person or agent can fix it"). The error is only
// for a document that cannot be read at all (not UTF-8).
func Lint(doc []byte, p Profile) ([]Problem, error) {
	d, err := Parse(doc, p)
	if err != nil {
		return nil, err
	}
	return d.Problems(), nil
}

// Problems lists malformed lines and mixed-profile signs, by line number.
func (d *Document) Problems() []Problem {
	var out []Problem
	mixed := map[int]string{}
	for _, m := range d.Mixed {
		mixed[m.Line] = m.Reason
	}
	done := map[int]bool{}
	for _, l := range d.Malformed() {
		r := l.Reason
		if m, ok := mixed[l.Num]; ok {
			r += "; " + m
			done[l.Num] = true
		}
		out = append(out, Problem{Line: l.Num, Reason: r})
	}
	for _, m := range d.Mixed {
		if !done[m.Line] {
			out = append(out, m)
		}
	}
	out = append(out, d.NearMisses...)
	sortProblems(out)
	return out
}

// detectNearMisses reports lines of the tasks section that readers ignore
// (§5.3: they do not begin with "- [ ] ") but that put the principal's
// label right after a list marker or a checkbox: "-[ ] [owner] …",
// "* [ ] [owner] …", "- [ ][owner] …", "- [owner] …", an indented one.
// Ignoring them is the spec's rule, and it stands; saying so is what keeps
// a person from waiting on an act that was never raised. A sub-list or
// prose that merely mentions the label further on is not reported.
func (d *Document) detectNearMisses() {
	p := d.Profile
	if !d.HasSection || p.Labels.Principal == "" || strings.Contains(p.Labels.Principal, "{") {
		return
	}
	label := p.LabelOpen + p.Labels.Principal + p.LabelClose
	for i := d.Heading + 1; i < d.End; i++ {
		l := &d.Lines[i]
		if l.Kind != KindIgnored {
			continue
		}
		t := strings.TrimLeft(l.Text, " \t")
		rest, marked := cutListMarker(t)
		rest = strings.TrimLeft(rest, " \t")
		if !marked && !strings.HasPrefix(rest, "[") {
			continue
		}
		// The label first, or after a checkbox of any spacing ("[ ]", "[]").
		if box := strings.IndexByte(rest, ']'); strings.HasPrefix(rest, "[") && box >= 0 && box <= 3 && !strings.HasPrefix(rest, label) {
			rest = strings.TrimLeft(rest[box+1:], " \t")
		}
		if !strings.HasPrefix(rest, label) {
			continue
		}
		want := "- [ ] " + label + " …"
		d.NearMisses = append(d.NearMisses, Problem{Line: l.Num, Ignored: true,
			Reason: fmt.Sprintf("readers ignore this line, so no act is raised for it: a task for the principal begins exactly %q (dash, space, [ ], space; not indented; Acts 0.3 §5.3)", want)})
	}
}

// cutListMarker strips a Markdown list marker ("-", "*", "+", "1.", "1)")
// from the start of t.
func cutListMarker(t string) (string, bool) {
	if t == "" {
		return t, false
	}
	switch t[0] {
	case '-', '*', '+':
		return t[1:], true
	}
	n := 0
	for n < len(t) && n < 9 && t[n] >= '0' && t[n] <= '9' {
		n++
	}
	if n > 0 && n < len(t) && (t[n] == '.' || t[n] == ')') {
		return t[n+1:], true
	}
	return t, false
}

func sortProblems(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].Line < ps[j].Line })
}

// foreign is what another profile's lines look like, whatever its
// parameters: its heading, its label brackets and its marker.
type foreign struct {
	name    string
	heading string
	open    string
	hint    string
	marker  *regexp.Regexp
}

var foreignProfiles = sync.OnceValue(func() []foreign {
	var out []foreign
	for _, d := range profileDefs {
		pat := d.MarkerPattern
		for _, k := range d.Params {
			pat = strings.ReplaceAll(pat, "{"+k+"}", `[^\s()（）:：]+`)
		}
		goPat, err := TranslatePattern(pat)
		if err != nil {
			panic(err)
		}
		out = append(out, foreign{name: d.Name, heading: d.Heading, open: d.LabelOpen, hint: d.markerHint, marker: regexp.MustCompile(goPat)})
	}
	return out
})

// detectMixed looks for another profile's heading, labels or markers.
func (d *Document) detectMixed() {
	p := d.Profile
	for _, f := range foreignProfiles() {
		if f.name == p.Name || f.heading == p.Heading {
			continue
		}
		for i := range d.Lines {
			l := &d.Lines[i]
			t := trimRightWS(l.Text)
			if t == f.heading {
				msg := fmt.Sprintf("%q is the %s profile's tasks heading, but this document is read with the %s profile", f.heading, f.name, p.Name)
				if !d.HasSection {
					msg += fmt.Sprintf(" (no %q heading, so no tasks): use --profile %s", p.Heading, f.name)
				}
				d.Mixed = append(d.Mixed, Problem{Line: l.Num, Reason: msg})
				if d.ForeignHeading == 0 {
					d.ForeignHeading, d.ForeignProfile = l.Num, f.name
				}
				continue
			}
			if !l.Checkbox() {
				continue
			}
			body := t[5:]
			switch {
			case f.open != p.LabelOpen && strings.HasPrefix(trimWS(body), f.open):
				d.Mixed = append(d.Mixed, Problem{Line: l.Num, Reason: fmt.Sprintf("the label is written with %q, as in the %s profile; this document is read with the %s profile (%s)", f.open, f.name, p.Name, p.labelList())})
			case l.Key == "" && strings.Contains(body, f.hint) && f.marker.MatchString(body):
				d.Mixed = append(d.Mixed, Problem{Line: l.Num, Reason: fmt.Sprintf("the line ends in a %s key marker; this document is read with the %s profile, whose registrar does not recognise it", f.name, p.Name)})
			}
		}
	}
}
