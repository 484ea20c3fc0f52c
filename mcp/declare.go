package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"unicode"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/actsession"
	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/sanitize"
)

// Declaring an act is what the Markdown binding asks of an agent (Acts
// 0.3 §5): the agent writes a principal line in the project's state
// document and the registrar raises it. tp_acts_declare does both, so an
// agent never edits the Markdown by hand: it appends one labelled line
// (the writers' form, §5.3) to the tasks section and runs the registrar
// over the document, which raises the line and stamps its key. The key
// is the result. What the line may hold is checked first, and nothing is
// written when it fails: one line of text (a newline would write a second
// line the agent did not mean, perhaps a principal line of its own), no
// key marker (only the registrar writes markers, §5.4), no credential
// (D5), and a project name the core accepts (§6.1).

type declareArgs struct {
	Document     string `json:"document" jsonschema:"The project's state document (Markdown)."`
	Project      string `json:"project" jsonschema:"The project; part of the key."`
	Text         string `json:"text" jsonschema:"What the principal is to do, one line."`
	Profile      string `json:"profile,omitempty" jsonschema:"en (default) or zh-hant."`
	PrincipalTag string `json:"principal_tag,omitempty" jsonschema:"zh-hant only."`
}

type declared struct {
	Key      string                 `json:"key"`
	Project  string                 `json:"project"`
	Text     string                 `json:"text"`
	Line     int                    `json:"line"`     // the line's number in the document
	Document string                 `json:"document"` // the document's absolute path
	Raised   bool                   `json:"raised"`   // this run raised it (false: raised before for the same text)
	Sync     *actsession.SyncReport `json:"sync"`     // the registrar's report
}

func (s *Server) addDeclareTool() {
	addTool(s, "tp_acts_declare",
		"Declare an act for the principal: append a labelled principal line to the state document's tasks and run the registrar, which raises it; returns its key.",
		additive, "", s.actsDeclare)
}

// declareLine checks the text an agent declares and returns it trimmed.
func declareLine(text string) (string, error) {
	refuse := func(rule string) error {
		return &toolError{Code: codeRefused, Rule: rule,
			Err: fmt.Errorf("text %q: %s; nothing was written", sanitize.Line(text), rule)}
	}
	t := strings.TrimSpace(text)
	if t == "" {
		return "", invalid(errors.New("arguments: text is empty"))
	}
	for _, c := range t {
		if c == '\n' || c == '\r' || c == '\u2028' || c == '\u2029' || c == '\u0085' {
			return "", refuse("an act is one line (Acts 0.3 §5.3): declare each act by itself")
		}
		if unicode.IsControl(c) && c != '\t' {
			return "", refuse("an act's text holds no control characters")
		}
	}
	if err := acts.RefuseCredentials("text", t); err != nil {
		return "", err
	}
	return t, nil
}

func (s *Server) actsDeclare(ctx context.Context, in declareArgs) (*declared, error) {
	text, err := declareLine(in.Text)
	if err != nil {
		return nil, err
	}
	if err := acts.CheckProjectName(in.Project); err != nil {
		return nil, &toolError{Code: codeRefused, Rule: "Acts 0.3 §6.1 project names", Err: err}
	}
	if in.Profile == "" {
		in.Profile = "en"
	}
	prof, err := acts.ProfileFor(in.Profile, in.PrincipalTag)
	if err != nil {
		return nil, invalid(fmt.Errorf("arguments: %v", err))
	}
	if _, _, ok := prof.FindMarker(text); ok {
		return nil, &toolError{Code: codeRefused, Rule: "Acts 0.3 §5.4: only the registrar writes key markers",
			Err: fmt.Errorf("text %q ends in a key marker: only the registrar writes keys; nothing was written", sanitize.Line(text))}
	}
	if s.cfg.ActsDir == "" {
		return nil, errors.New("no acts folder: set --acts-dir or TP_ACTS")
	}
	doc, err := s.confine(ctx, "document", in.Document, write)
	if err != nil {
		return nil, err
	}
	line, err := appendPrincipalLine(doc, prof, text)
	if err != nil {
		return nil, err
	}
	rep, err := s.actsSync(ctx, syncArgs{Document: in.Document, Project: in.Project, Profile: in.Profile, PrincipalTag: in.PrincipalTag})
	if err != nil {
		return nil, fmt.Errorf("the line is in %s (line %d), but the registrar did not run: %w; tp_acts_sync raises it", doc, line, err)
	}
	out := &declared{Project: in.Project, Text: text, Line: line, Document: doc, Sync: rep}
	// The key is the one the registrar stamped on the line (or relinked
	// it to: a key it raised before for the same text).
	out.Key = keyOfLine(doc, prof, text)
	if out.Key == "" {
		return nil, fmt.Errorf("the line is in %s (line %d) but carries no key after the registrar ran; run tp_acts_sync and read its warnings", doc, line)
	}
	for _, sent := range rep.Sent {
		if sent.Key == out.Key && sent.Type == acts.TypeRaised && sent.Result != "duplicate" {
			out.Raised = true
		}
	}
	return out, nil
}

// appendPrincipalLine adds "- [ ] [principal] text" (in the profile's
// labels) to the end of the document's tasks section, replacing the
// placeholder when it is the section's only line, or adds the section at
// the end of the document; it returns the new line's number. The write is
// durable and refused when the document changed since it was read.
func appendPrincipalLine(path string, p acts.Profile, text string) (int, error) {
	info, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	if !info.Mode().IsRegular() {
		return 0, &toolError{Code: codeRefused, Rule: "D25", Err: fmt.Errorf("%s is not a regular file", path)}
	}
	old, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	d, err := acts.Parse(old, p)
	if err != nil {
		return 0, err
	}
	eol := "\n"
	for _, l := range d.Lines {
		if l.End != "" {
			eol = l.End
			break
		}
	}
	item := acts.Line{Text: "- [ ] " + p.LabelOpen + p.Labels.Principal + p.LabelClose + p.LabelSeparator + text, End: eol}
	lines := d.Lines
	at := -1
	switch {
	case !d.HasSection:
		if n := len(lines); n > 0 {
			if lines[n-1].End == "" {
				lines[n-1].End = eol
			}
			if strings.TrimSpace(lines[n-1].Text) != "" {
				lines = append(lines, acts.Line{End: eol})
			}
		}
		lines = append(lines, acts.Line{Text: p.Heading, End: eol}, acts.Line{End: eol}, item)
		at = len(lines) - 1
	default:
		last := d.Heading
		for i := d.Heading + 1; i < d.End; i++ {
			if strings.TrimSpace(lines[i].Text) != "" {
				last = i
			}
		}
		if last > d.Heading && strings.TrimRight(lines[last].Text, " \t") == p.Placeholder && onlyLine(lines, d.Heading, d.End, last) {
			lines[last] = item
			at = last
			break
		}
		if lines[last].End == "" {
			lines[last].End = eol
		}
		at = last + 1
		lines = append(lines[:at], append([]acts.Line{item}, lines[at:]...)...)
	}
	d.Lines = lines
	data := d.Bytes()
	// What the registrar will read: the new line must be a principal task
	// with exactly this text and no key, and nothing else may change class.
	check, err := acts.Parse(data, p)
	if err != nil {
		return 0, err
	}
	var got *acts.Line
	for _, l := range check.Tasks() {
		if l.Num == at+1 {
			got = l
		}
	}
	if got == nil || got.Class != acts.ClassPrincipal || got.Key != "" || got.TaskText != text || len(check.Tasks()) != len(d0Tasks(old, p))+1 {
		return 0, &toolError{Code: codeRefused, Rule: "Acts 0.3 §5.3",
			Err: fmt.Errorf("text %q would not read back as one principal line; nothing was written", sanitize.Line(text))}
	}
	if err := durable.WriteFileIf(path, data, info.Mode().Perm(), func() error {
		if now, err := os.ReadFile(path); err != nil || string(now) != string(old) {
			return fmt.Errorf("%s changed while the line was added; nothing was written (call again)", path)
		}
		return nil
	}); err != nil {
		return 0, err
	}
	return at + 1, nil
}

// onlyLine reports whether i is the only non-blank line of the section.
func onlyLine(lines []acts.Line, heading, end, i int) bool {
	for j := heading + 1; j < end; j++ {
		if j != i && strings.TrimSpace(lines[j].Text) != "" {
			return false
		}
	}
	return true
}

// d0Tasks are the tasks of the document as read.
func d0Tasks(doc []byte, p acts.Profile) []*acts.Line {
	d, err := acts.Parse(doc, p)
	if err != nil {
		return nil
	}
	return d.Tasks()
}

// keyOfLine is the key the principal line with text carries in the
// document now, or "".
func keyOfLine(path string, p acts.Profile, text string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	d, err := acts.Parse(b, p)
	if err != nil {
		return ""
	}
	key := ""
	for _, l := range d.Tasks() {
		if l.Class == acts.ClassPrincipal && l.TaskText == text && l.Key != "" {
			key = l.Key
		}
	}
	return key
}
