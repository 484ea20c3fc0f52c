package components

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/themes"
	"github.com/tp-dev/tp/ui/common"
)

// AskKeys are the keys of an ask list.
type AskKeys struct {
	List   ListKeys
	Answer key.Binding
	Edit   EditKeys
}

// DefaultAskKeys returns the keys of an ask list; answer names what enter
// does on the screen that uses it.
func DefaultAskKeys(answer string) AskKeys {
	return AskKeys{
		List:   DefaultListKeys(),
		Answer: KB([]string{"enter", "a"}, "enter", answer),
		Edit:   DefaultEditKeys(),
	}
}

// AskList is a passport's asks (TaskPack 0.1 §4.3): a list with a cursor,
// the ask under it in full (what, why, accept, answer), and an editor for
// its answer. The asks screen (tp asks) and the landing's asks step are both
// built on it; each decides what an answer it keeps means.
type AskList struct {
	Keys   AskKeys
	Asks   []common.Ask
	Cursor Cursor
	th     *themes.Theme
	editor textarea.Model
	typing bool
}

// NewAskList returns an empty ask list drawn with th.
func NewAskList(th *themes.Theme, answer string) AskList {
	ta := NewTextArea(th)
	ta.Placeholder = "the answer, as you would give it…"
	k := DefaultAskKeys(answer)
	return AskList{Keys: k, Cursor: Cursor{Keys: k.List}, th: th, editor: ta}
}

// SetSize sizes the answer editor for a screen of w × h.
func (a *AskList) SetSize(w, h int) {
	a.editor.SetWidth(max(w-4, 10))
	a.editor.SetHeight(max(min(h-12, 6), 2))
}

// Current is the ask under the cursor.
func (a *AskList) Current() (common.Ask, bool) {
	if len(a.Asks) == 0 {
		return common.Ask{}, false
	}
	return a.Asks[min(a.Cursor.Cur, len(a.Asks)-1)], true
}

// Typing reports whether the answer editor is open.
func (a *AskList) Typing() bool { return a.typing }

// StartAnswer opens the editor on the answer given so far, so editing an
// answer starts from its old text.
func (a *AskList) StartAnswer(old string) tea.Cmd {
	a.typing = true
	a.editor.SetValue(old)
	return a.editor.Focus()
}

// Typed is what the editor reports when it closes.
type Typed struct {
	Done  bool   // the editor closed
	Kept  bool   // with ctrl+s: Answer is to be kept
	Value string // the editor's text, as typed
}

// UpdateTyping hands a message to the open editor.
func (a *AskList) UpdateTyping(msg tea.Msg) (Typed, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		switch {
		case key.Matches(k, a.Keys.Edit.Save):
			a.typing = false
			a.editor.Blur()
			return Typed{Done: true, Kept: true, Value: a.editor.Value()}, nil
		case key.Matches(k, a.Keys.Edit.Cancel):
			a.typing = false
			a.editor.Blur()
			return Typed{Done: true}, nil
		}
	}
	var cmd tea.Cmd
	a.editor, cmd = a.editor.Update(msg)
	return Typed{}, cmd
}

// Rows draws the list part, lh rows high, each ask's status cell made by
// status.
func (a *AskList) Rows(w, lh int, status func(common.Ask) string) []string {
	th := a.th
	var out []string
	from, to := a.Cursor.Range(len(a.Asks), lh)
	for i := from; i < to; i++ {
		q := a.Asks[i]
		row := status(q) + " " + th.Muted.Render(Line(q.ID)) + " " + Line(q.What)
		if i == a.Cursor.Cur {
			out = append(out, th.Cursor.Render("▸ ")+Fit(row, w-2))
		} else {
			out = append(out, "  "+Fit(row, w-2))
		}
	}
	return append(out, th.Muted.Render(strings.Repeat("─", max(w, 1))))
}

// Field is one labelled, wrapped field of the ask in full; nothing when v
// is empty.
func (a *AskList) Field(w int, name, v string) []string {
	if v == "" {
		return nil
	}
	th := a.th
	ws := Wrap(v, w-10)
	out := []string{th.Muted.Render(fmt.Sprintf("%-8s", name)) + th.Data.Render(ws[0])}
	for _, ln := range ws[1:] {
		out = append(out, strings.Repeat(" ", 8)+th.Data.Render(ln))
	}
	return out
}

// Detail draws what, why and accept of the ask under the cursor.
func (a *AskList) Detail(w int) []string {
	q, ok := a.Current()
	if !ok {
		return nil
	}
	out := a.Field(w, "what", q.What)
	out = append(out, a.Field(w, "why", q.Why)...)
	return append(out, a.Field(w, "accept", q.Accept)...)
}

// Editor draws the open answer editor with its heading.
func (a *AskList) Editor() []string {
	th := a.th
	out := []string{th.Subtitle.Render("Your answer") + th.Muted.Render(" (ctrl+s keep · esc discard)")}
	return append(out, strings.Split(a.editor.View(), "\n")...)
}

// EditorHelp is the help of the open editor.
func (a *AskList) EditorHelp() []key.Binding {
	return []key.Binding{a.Keys.Edit.Save, a.Keys.Edit.Cancel}
}
