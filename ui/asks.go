package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/components"
)

// AsksLoadedMsg is sent by the asks screen when the passport was read.
type AsksLoadedMsg struct {
	Sheet *common.AskSheet
	Err   error
}

// AsksSavedMsg is sent by the asks screen when the edits were saved.
type AsksSavedMsg struct {
	Sheet *common.AskSheet
	Err   error
}

// ReceiptPackedMsg is sent by the asks screen when a receipt was written.
type ReceiptPackedMsg struct {
	Path string
	Err  error
}

// AsksKeys are the asks screen's keys.
type AsksKeys struct {
	List                       ListKeys
	Answer, Drop, Leave, Write key.Binding
	Yes, No                    key.Binding
	Back, Finish               key.Binding
}

// DefaultAsksKeys returns the asks screen's keys.
func DefaultAsksKeys() AsksKeys {
	return AsksKeys{
		List:   DefaultListKeys(),
		Answer: kb([]string{"enter", "a"}, "enter", "answer"),
		Drop:   kb([]string{"d"}, "d", "drop"),
		Leave:  kb([]string{"o"}, "o", "leave as it is"),
		Write:  kb([]string{"w"}, "w", "review and save…"),
		Yes:    kb([]string{"y"}, "y", "yes"),
		No:     kb([]string{"n", "esc"}, "n/esc", "no"),
		Back:   kb([]string{"esc"}, "esc", "back"),
		Finish: kb([]string{"enter"}, "enter", "finish"),
	}
}

const (
	asksList = iota
	asksAnswer
	asksReview
	asksOffer
	asksPath
	asksDone
)

// AsksScreen answers, drops or leaves each ask of a stored passport
// (`tp asks ID`, TaskPack §4.3), then offers to pack a receipt.
type AsksScreen struct {
	c    *common.Common
	keys AsksKeys
	id   string
	w, h int

	sheet  *common.AskSheet
	err    error
	edits  map[string]common.AskEdit
	list   components.AskList // the asks, shared with the landing's asks step
	revOff int                // scroll offset of the review list
	mode   int
	path   textinput.Model
	packed string
	saving bool
	saved  int // changes saved, for the offer that follows
}

// NewAsks returns the asks screen for passport id.
func NewAsks(c *common.Common, id string) *AsksScreen {
	p := components.NewTextInput(c.Theme)
	p.Prompt = "file: "
	s := &AsksScreen{c: c, keys: DefaultAsksKeys(), id: id, edits: map[string]common.AskEdit{}, list: components.NewAskList(c.Theme, "answer"), path: p}
	s.SetSize(c.Width, c.Height-common.Chrome)
	return s
}

func (s *AsksScreen) Title() string { return "asks " + components.Line(s.id) }
func (s *AsksScreen) Capturing() bool {
	return s.mode == asksAnswer || s.mode == asksPath
}
func (s *AsksScreen) Busy() bool { return false }
func (s *AsksScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.list.SetSize(w, h)
	if s.sheet != nil {
		s.list.Cursor.Fit(len(s.sheet.Asks), s.listHeight())
	}
	s.path.Width = max(w-10, 10)
}

func (s *AsksScreen) setSheet(sh *common.AskSheet) {
	s.sheet = sh
	if sh != nil {
		s.list.Asks = sh.Asks
		s.list.Cursor.Fit(len(sh.Asks), s.listHeight())
	}
}

// Edits returns the staged edits.
func (s *AsksScreen) Edits() map[string]common.AskEdit { return s.edits }

// Sheet is the passport's asks as last read or saved.
func (s *AsksScreen) Sheet() *common.AskSheet { return s.sheet }

// Packed is the receipt written, if any.
func (s *AsksScreen) Packed() string { return s.packed }

// Init reads the passport.
func (s *AsksScreen) Init() tea.Cmd {
	src, ctx, id := s.c.Deps.Asks, s.c.Ctx, s.id
	return func() tea.Msg {
		if src == nil {
			return AsksLoadedMsg{Err: fmt.Errorf("the passport store is not available in this build")}
		}
		sh, err := src.LoadAsks(ctx, id)
		return AsksLoadedMsg{Sheet: sh, Err: err}
	}
}

// Update handles messages.
func (s *AsksScreen) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case AsksLoadedMsg:
		s.setSheet(msg.Sheet)
		s.err = msg.Err
		return s, nil
	case AsksSavedMsg:
		s.saving = false
		if msg.Err != nil {
			s.err, s.mode = msg.Err, asksList
			return s, nil
		}
		s.setSheet(msg.Sheet)
		s.err = nil
		s.saved = len(s.edits)
		s.edits = map[string]common.AskEdit{}
		s.mode = asksOffer
		return s, nil
	case ReceiptPackedMsg:
		if msg.Err != nil {
			s.err, s.mode = msg.Err, asksPath
			return s, s.path.Focus()
		}
		s.packed, s.err, s.mode = msg.Path, nil, asksDone
		return s, nil
	case tea.KeyMsg:
		return s.key(msg)
	}
	switch s.mode {
	case asksAnswer:
		_, cmd := s.list.UpdateTyping(msg)
		return s, cmd
	case asksPath:
		var cmd tea.Cmd
		s.path, cmd = s.path.Update(msg)
		return s, cmd
	}
	return s, nil
}

func (s *AsksScreen) key(msg tea.KeyMsg) (common.Component, tea.Cmd) {
	k := s.keys
	if s.sheet == nil {
		if key.Matches(msg, k.Back, k.Finish) {
			return s, common.Pop
		}
		return s, nil
	}
	switch s.mode {
	case asksAnswer:
		t, cmd := s.list.UpdateTyping(msg)
		if t.Done {
			a, _ := s.list.Current()
			if v := strings.TrimSpace(t.Value); t.Kept && v != "" {
				s.edits[a.ID] = common.AskEdit{ID: a.ID, Action: "answer", Answer: v}
			}
			s.mode = asksList
		}
		return s, cmd
	case asksReview:
		switch {
		case key.Matches(msg, k.Yes) && !s.saving:
			s.saving = true
			return s, s.saveCmd()
		case key.Matches(msg, k.No):
			s.mode = asksList
		default:
			// More changes than fit scroll; the question and its keys stay.
			if off, ok := k.List.move(msg, s.revOff, len(s.edits), s.reviewHeight()); ok {
				s.revOff = components.Clamp(off, len(s.edits), s.reviewHeight())
			}
		}
		return s, nil
	case asksOffer:
		switch {
		case s.sheet.NoReceipt != "":
			// Nothing to offer: any of the offer's keys goes back.
			if key.Matches(msg, k.Yes, k.No, k.Finish) {
				return s, common.Pop
			}
		case key.Matches(msg, k.Yes):
			s.mode = asksPath
			if s.path.Value() == "" {
				s.path.SetValue(s.sheet.ReceiptName)
			}
			s.path.CursorEnd()
			return s, s.path.Focus()
		case key.Matches(msg, k.No):
			return s, common.Pop
		}
		return s, nil
	case asksPath:
		switch {
		case key.Matches(msg, k.Finish):
			s.path.Blur()
			return s, s.packCmd(strings.TrimSpace(s.path.Value()))
		case key.Matches(msg, k.Back):
			s.path.Blur()
			s.mode = asksOffer
			return s, nil
		}
		var cmd tea.Cmd
		s.path, cmd = s.path.Update(msg)
		return s, cmd
	case asksDone:
		if key.Matches(msg, k.Back, k.Finish) {
			return s, common.Pop
		}
		return s, nil
	}
	n := len(s.sheet.Asks)
	if s.list.Cursor.Update(msg, n, s.listHeight()) {
		return s, nil
	}
	if key.Matches(msg, k.Back) {
		return s, common.Pop
	}
	if n == 0 {
		return s, nil
	}
	a, _ := s.list.Current()
	switch {
	case key.Matches(msg, k.Answer):
		// Editing an answer starts from its old text: the one staged
		// here, else the one saved on the passport.
		old := a.Answer
		if e, ok := s.edits[a.ID]; ok && e.Action == "answer" {
			old = e.Answer
		}
		s.mode = asksAnswer
		return s, s.list.StartAnswer(old)
	case key.Matches(msg, k.Drop):
		s.edits[a.ID] = common.AskEdit{ID: a.ID, Action: "drop"}
	case key.Matches(msg, k.Leave):
		delete(s.edits, a.ID)
	case key.Matches(msg, k.Write):
		if len(s.edits) > 0 {
			s.mode, s.revOff = asksReview, 0
		} else {
			s.mode, s.saved = asksOffer, 0
		}
	}
	return s, nil
}

func (s *AsksScreen) orderedEdits() []common.AskEdit {
	var out []common.AskEdit
	for _, a := range s.sheet.Asks {
		if e, ok := s.edits[a.ID]; ok {
			out = append(out, e)
		}
	}
	return out
}

func (s *AsksScreen) saveCmd() tea.Cmd {
	src, ctx, sheet, edits := s.c.Deps.Asks, s.c.Ctx, s.sheet, s.orderedEdits()
	return func() tea.Msg {
		sh, err := src.SaveAsks(ctx, sheet, edits)
		return AsksSavedMsg{Sheet: sh, Err: err}
	}
}

func (s *AsksScreen) packCmd(out string) tea.Cmd {
	src, ctx, id := s.c.Deps.Asks, s.c.Ctx, s.sheet.ID
	return func() tea.Msg {
		p, err := src.PackReceipt(ctx, id, out)
		return ReceiptPackedMsg{Path: p, Err: err}
	}
}

// reviewHeight is how many changes the review shows at once: the screen less
// the header, the question, the "more" line and the closing prompt.
func (s *AsksScreen) reviewHeight() int { return max(s.h-7, 1) }

func (s *AsksScreen) listHeight() int {
	if s.sheet == nil {
		return 1
	}
	return max(min(len(s.sheet.Asks), (s.h-3)/2), 1)
}

// ShortHelp lists the keys of the current mode.
func (s *AsksScreen) ShortHelp() []key.Binding {
	k := s.keys
	switch s.mode {
	case asksAnswer:
		return s.list.EditorHelp()
	case asksReview:
		no := kb([]string{"n", "esc"}, "n/esc", "back, nothing saved")
		if len(s.edits) > s.reviewHeight() {
			return []key.Binding{kb([]string{"y"}, "y", "save"), no, k.List.Down, k.List.Up}
		}
		return []key.Binding{kb([]string{"y"}, "y", "save"), no}
	case asksOffer:
		if s.sheet != nil && s.sheet.NoReceipt != "" {
			return []key.Binding{kb([]string{"enter"}, "enter/esc", "back")}
		}
		return []key.Binding{kb([]string{"y"}, "y", "pack a receipt"), kb([]string{"n"}, "n/esc", "not now")}
	case asksPath:
		return []key.Binding{kb([]string{"enter"}, "enter", "write it"), kb([]string{"esc"}, "esc", "back")}
	case asksDone:
		return []key.Binding{kb([]string{"enter"}, "enter", "finish")}
	}
	return []key.Binding{k.Answer, k.Drop, k.Leave, k.Write}
}

// FullHelp lists every key.
func (s *AsksScreen) FullHelp() [][]key.Binding {
	k := s.keys
	return [][]key.Binding{{k.List.Up, k.List.Down, k.List.PageUp, k.List.PageDown}, {k.Answer, k.Drop, k.Leave, k.Write}}
}

// View draws the asks.
func (s *AsksScreen) View() string {
	th := s.c.Theme
	if s.sheet == nil {
		if s.err != nil {
			return components.Pad(append([]string{th.Error.Render("✗ could not read " + components.Line(s.id))}, components.Wrap(s.err.Error(), s.w)...), s.w, s.h)
		}
		return components.Pad([]string{th.Muted.Render("Reading " + components.Line(s.id) + "…")}, s.w, s.h)
	}
	sh := s.sheet
	out := []string{th.Title.Render(components.Line(sh.ID)) + " " + components.Line(sh.Title) + th.Muted.Render(fmt.Sprintf(" · version %d · %s", sh.Version, components.Count(len(sh.Asks), "ask", "asks")))}
	switch s.mode {
	case asksReview:
		es := s.orderedEdits()
		out = append(out, "", th.Warn.Render("Save these changes to "+components.Line(sh.ID)+"?"))
		var rows []string
		for _, e := range es {
			if e.Action == "drop" {
				rows = append(rows, "  "+th.Muted.Render(components.Line(e.ID))+" → dropped")
			} else {
				rows = append(rows, "  "+th.Muted.Render(components.Line(e.ID))+" → answered: "+th.Data.Render(components.Line(e.Answer)))
			}
		}
		vis, off := components.Window(rows, s.revOff, s.reviewHeight())
		out = append(out, vis...)
		if len(rows) > len(vis) {
			out = append(out, th.Muted.Render(fmt.Sprintf("  %d–%d of %d · ↑/↓ pgup/pgdn to scroll", off+1, off+len(vis), len(rows))))
		}
		out = append(out, "")
		for _, ln := range components.Wrap("answered_by and answered_at are recorded with each answer. y saves · n/esc goes back", s.w) {
			out = append(out, th.Muted.Render(ln))
		}
		return components.Pad(s.withErr(out), s.w, s.h)
	case asksOffer:
		done := th.Muted.Render("nothing to save")
		if s.saved > 0 {
			done = th.Pass.Render(fmt.Sprintf("✓ saved as version %d (%s changed)", sh.Version, components.Count(s.saved, "ask", "asks")))
		}
		out = append(out, "", done, "")
		if sh.NoReceipt != "" {
			// A root passport's receipt would go nowhere (D6 homeless):
			// say so instead of offering it.
			for _, ln := range components.Wrap("No receipt to pack: "+sh.NoReceipt+".", s.w) {
				out = append(out, th.Muted.Render(ln))
			}
			out = append(out, "", th.Key.Render("enter")+" back")
			return components.Pad(s.withErr(out), s.w, s.h)
		}
		out = append(out, "Pack a receipt now, so the answers travel back to whoever asked (§4.4.1)?", "",
			th.Key.Render("y")+" pack a receipt · "+th.Key.Render("n")+" not now")
		return components.Pad(s.withErr(out), s.w, s.h)
	case asksPath:
		out = append(out, "", "Write the receipt to:", s.path.View(), "", th.Muted.Render("enter writes it · esc goes back"))
		return components.Pad(s.withErr(out), s.w, s.h)
	case asksDone:
		out = append(out, "", th.Pass.Render("✓ receipt written to"))
		for _, ln := range components.WrapPath(s.packed, s.w-2) {
			out = append(out, "  "+ln)
		}
		out = append(out, "")
		out = append(out, components.Inline(th, "Send it back; `tp land` on the other side merges it into the passport that asked.", s.w)...)
		return components.Pad(out, s.w, s.h)
	}
	if len(sh.Asks) == 0 {
		out = append(out, "", th.Muted.Render("No asks on this passport."))
		return components.Pad(s.withErr(out), s.w, s.h)
	}
	out = append(out, s.list.Rows(s.w, s.listHeight(), func(a common.Ask) string {
		if e, ok := s.edits[a.ID]; ok {
			return th.Warn.Render(fmt.Sprintf("%-10s", map[string]string{"answer": "→answered", "drop": "→dropped"}[e.Action]))
		}
		st := a.Status
		if st == "" {
			st = "open"
		}
		return th.Muted.Render(fmt.Sprintf("%-10s", components.Line(st)))
	})...)
	out = append(out, s.list.Detail(s.w)...)
	a, _ := s.list.Current()
	if s.mode == asksAnswer {
		out = append(out, s.list.Editor()...)
	} else if e, ok := s.edits[a.ID]; ok && e.Action == "answer" {
		out = append(out, s.list.Field(s.w, "answer", e.Answer)...)
	} else if a.Answer != "" {
		out = append(out, s.list.Field(s.w, "answer", a.Answer)...)
		if a.AnsweredBy != "" {
			out = append(out, th.Muted.Render("        by "+components.Line(a.AnsweredBy)+" at "+components.Line(a.AnsweredAt)))
		}
	}
	if len(s.edits) > 0 {
		out = append(out, "", th.Warn.Render(components.Count(len(s.edits), "unsaved change", "unsaved changes"))+th.Muted.Render(" · w review and save · q quit unsaved"))
	}
	return components.Pad(s.withErr(out), s.w, s.h)
}

func (s *AsksScreen) withErr(out []string) []string {
	if s.err == nil {
		return out
	}
	return append(out, "", s.c.Theme.Error.Render("✗ ")+components.Line(s.err.Error()))
}
