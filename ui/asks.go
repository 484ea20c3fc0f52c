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

// ReceiptFilesMsg is sent by the asks screen when files picked for a
// receipt were listed and checked (confined, scanned, issue 17).
type ReceiptFilesMsg struct {
	Files []common.ReceiptFile
	Err   error
}

// AsksKeys are the asks screen's keys.
type AsksKeys struct {
	List                       ListKeys
	Answer, Drop, Leave, Write key.Binding
	Yes, No                    key.Binding
	Back, Finish               key.Binding
	// AddFile and RemoveFile pick the files a receipt carries; Pack
	// writes it.
	AddFile, RemoveFile, Pack key.Binding
}

// DefaultAsksKeys returns the asks screen's keys.
func DefaultAsksKeys() AsksKeys {
	return AsksKeys{
		List:       DefaultListKeys(),
		Answer:     kb([]string{"enter", "a"}, "enter", "answer"),
		Drop:       kb([]string{"d"}, "d", "drop"),
		Leave:      kb([]string{"o"}, "o", "leave as it is"),
		Write:      kb([]string{"w"}, "w", "review and save…"),
		Yes:        kb([]string{"y"}, "y", "yes"),
		No:         kb([]string{"n", "esc"}, "n/esc", "no"),
		Back:       kb([]string{"esc"}, "esc", "back"),
		Finish:     kb([]string{"enter"}, "enter", "finish"),
		AddFile:    kb([]string{"f"}, "f", "add a file or folder"),
		RemoveFile: kb([]string{"x"}, "x", "remove the last file"),
		Pack:       kb([]string{"enter", "y"}, "enter", "pack it"),
	}
}

const (
	asksList = iota
	asksAnswer
	asksReview
	asksOffer
	asksPath
	asksReceipt // what the receipt carries, before it is packed
	asksFile    // typing a file to add
	asksDone
)

// AsksScreen answers, drops or leaves each ask of a stored passport
// (`tp asks ID`, TaskPack §4.3), then offers to pack a receipt.
type AsksScreen struct {
	c    *common.Common
	keys AsksKeys
	id   string
	w, h int

	sheet   *common.AskSheet
	err     error
	edits   map[string]common.AskEdit
	list    components.AskList // the asks, shared with the landing's asks step
	revOff  int                // scroll offset of the review list
	mode    int
	path    textinput.Model
	file    textinput.Model
	files   []common.ReceiptFile // what the receipt carries, checked
	fileOff int
	packed  string
	saving  bool
	saved   int // changes saved, for the offer that follows
}

// NewAsks returns the asks screen for passport id.
func NewAsks(c *common.Common, id string) *AsksScreen {
	p := components.NewTextInput(c.Theme)
	p.Prompt = "file: "
	f := components.NewTextInput(c.Theme)
	f.Prompt = "add: "
	f.Placeholder = "a file or folder in this folder"
	s := &AsksScreen{c: c, keys: DefaultAsksKeys(), id: id, edits: map[string]common.AskEdit{}, list: components.NewAskList(c.Theme, "answer"), path: p, file: f}
	s.SetSize(c.Width, c.Height-common.Chrome)
	return s
}

func (s *AsksScreen) Title() string { return "asks " + components.Line(s.id) }
func (s *AsksScreen) Capturing() bool {
	return s.mode == asksAnswer || s.mode == asksPath || s.mode == asksFile
}
func (s *AsksScreen) Busy() bool { return false }
func (s *AsksScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.list.SetSize(w, h)
	if s.sheet != nil {
		s.list.Cursor.Fit(len(s.sheet.Asks), s.listHeight())
	}
	s.path.Width = max(w-10, 10)
	s.file.Width = max(w-10, 10)
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
	case ReceiptFilesMsg:
		s.mode = asksReceipt
		if msg.Err != nil {
			s.err = msg.Err
			return s, nil
		}
		s.err = nil
		for _, f := range msg.Files {
			for _, g := range s.files {
				if g.Name == f.Name {
					s.err = fmt.Errorf("%s is carried already; nothing was added", f.Name)
					return s, nil
				}
			}
		}
		s.files = append(s.files, msg.Files...)
		s.fileOff = max(len(s.fileRows())-s.fileRoom(), 0) // show what was added
		return s, nil
	case ReceiptPackedMsg:
		if msg.Err != nil {
			s.err, s.mode = msg.Err, asksReceipt
			return s, nil
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
	case asksFile:
		var cmd tea.Cmd
		s.file, cmd = s.file.Update(msg)
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
			// What the receipt carries is shown before it is packed.
			s.path.Blur()
			s.err, s.mode = nil, asksReceipt
			return s, nil
		case key.Matches(msg, k.Back):
			s.path.Blur()
			s.mode = asksOffer
			return s, nil
		}
		var cmd tea.Cmd
		s.path, cmd = s.path.Update(msg)
		return s, cmd
	case asksReceipt:
		if off, ok := k.List.move(msg, s.fileOff, len(s.fileRows()), s.fileRoom()); ok {
			s.fileOff = components.Clamp(off, len(s.fileRows()), s.fileRoom())
			return s, nil
		}
		switch {
		case key.Matches(msg, k.Pack):
			if n := s.refused(); n > 0 {
				s.err = fmt.Errorf("%s cannot travel (✗ above): x removes the last file; nothing was written", components.Count(n, "file", "files"))
				return s, nil
			}
			return s, s.packCmd(strings.TrimSpace(s.path.Value()), s.files)
		case key.Matches(msg, k.AddFile):
			s.err, s.mode = nil, asksFile
			s.file.SetValue("")
			return s, s.file.Focus()
		case key.Matches(msg, k.RemoveFile) && len(s.files) > 0:
			// A folder's files go together, as they were added.
			last := s.files[len(s.files)-1].Group
			for len(s.files) > 0 && s.files[len(s.files)-1].Group == last {
				s.files = s.files[:len(s.files)-1]
			}
			s.err = nil
			s.fileOff = components.Clamp(s.fileOff, len(s.fileRows()), s.fileRoom())
		case key.Matches(msg, k.Back):
			s.mode = asksPath
			return s, s.path.Focus()
		}
		return s, nil
	case asksFile:
		switch {
		case key.Matches(msg, k.Finish):
			s.file.Blur()
			v := strings.TrimSpace(s.file.Value())
			if v == "" {
				s.mode = asksReceipt
				return s, nil
			}
			return s, s.checkFilesCmd(v)
		case key.Matches(msg, k.Back):
			s.file.Blur()
			s.mode = asksReceipt
			return s, nil
		}
		var cmd tea.Cmd
		s.file, cmd = s.file.Update(msg)
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

func (s *AsksScreen) packCmd(out string, files []common.ReceiptFile) tea.Cmd {
	src, ctx, id := s.c.Deps.Asks, s.c.Ctx, s.sheet.ID
	files = append([]common.ReceiptFile(nil), files...)
	return func() tea.Msg {
		p, err := src.PackReceipt(ctx, id, out, files)
		return ReceiptPackedMsg{Path: p, Err: err}
	}
}

// checkFilesCmd lists and checks what path carries (confined, scanned).
func (s *AsksScreen) checkFilesCmd(path string) tea.Cmd {
	src, ctx := s.c.Deps.Asks, s.c.Ctx
	group := len(s.files)
	return func() tea.Msg {
		fs, err := src.CheckFiles(ctx, []string{path})
		for i := range fs {
			fs[i].Group = group
		}
		return ReceiptFilesMsg{Files: fs, Err: err}
	}
}

// Files are the files the receipt will carry, as listed and checked.
func (s *AsksScreen) Files() []common.ReceiptFile { return s.files }

func (s *AsksScreen) refused() int {
	n := 0
	for _, f := range s.files {
		if len(f.Refused) > 0 {
			n++
		}
	}
	return n
}

// fileRows are the receipt's files as the review draws them, each reason a
// file cannot travel wrapped under it: the scroll counts every row.
func (s *AsksScreen) fileRows() []string {
	th := s.c.Theme
	var rows []string
	for _, f := range s.files {
		mark := th.Pass.Render("✓ ")
		if len(f.Refused) > 0 {
			mark = th.Fail.Render("✗ ")
		}
		for i, ln := range components.WrapPath(f.Name, max(s.w-16, 10)) {
			if i == 0 {
				rows = append(rows, "  "+mark+ln+th.Muted.Render(" "+components.HumanBytes(f.Size)))
			} else {
				rows = append(rows, "    "+ln)
			}
		}
		for _, r := range f.Refused {
			for _, ln := range components.Wrap("cannot travel: "+r, max(s.w-6, 10)) {
				rows = append(rows, "      "+th.Fail.Render(ln))
			}
		}
	}
	return rows
}

// fileRoom is how many file rows the review shows at once: the screen less
// the header, the receipt's name, the headings, the position and the keys.
func (s *AsksScreen) fileRoom() int { return max(s.h-12, 1) }

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
		return []key.Binding{kb([]string{"enter"}, "enter", "next: the files it carries"), kb([]string{"esc"}, "esc", "back")}
	case asksReceipt:
		if len(s.files) > 0 {
			return []key.Binding{k.Pack, k.AddFile, k.RemoveFile, kb([]string{"esc"}, "esc", "back")}
		}
		return []key.Binding{k.Pack, k.AddFile, kb([]string{"esc"}, "esc", "back")}
	case asksFile:
		return []key.Binding{kb([]string{"enter"}, "enter", "add it"), kb([]string{"esc"}, "esc", "cancel")}
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
		out = append(out, "", "Write the receipt to:", s.path.View(), "", th.Muted.Render("enter shows what it carries before it is written · esc goes back"))
		return components.Pad(s.withErr(out), s.w, s.h)
	case asksReceipt, asksFile:
		out = append(out, "", th.Warn.Render("Pack this receipt?"))
		for i, ln := range components.WrapPath(strings.TrimSpace(s.path.Value()), max(s.w-3, 10)) {
			lead := "   "
			if i == 0 {
				lead = th.Muted.Render("to ")
			}
			out = append(out, lead+ln)
		}
		for _, ln := range components.Wrap(fmt.Sprintf("files it carries back (%d, from this folder only; each is scanned for credentials):", len(s.files)), s.w) {
			out = append(out, th.Muted.Render(ln))
		}
		rows := s.fileRows()
		if len(rows) == 0 {
			out = append(out, th.Muted.Render("  none · f adds a file or a folder"))
		}
		vis, off := components.Window(rows, s.fileOff, s.fileRoom())
		out = append(out, vis...)
		if len(rows) > len(vis) {
			out = append(out, th.Muted.Render(fmt.Sprintf("  lines %d–%d of %d · ↑/↓ scroll", off+1, off+len(vis), len(rows))))
		}
		if s.mode == asksFile {
			out = append(out, "", s.file.View())
		} else {
			out = append(out, "", th.Key.Render("enter")+" pack it · "+th.Key.Render("f")+" add a file · "+th.Key.Render("x")+" remove the last · "+th.Key.Render("esc")+" back")
		}
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
	// Wrapped, never cut (issue 17): a refusal names the file and why.
	out = append(out, "")
	for i, ln := range components.Wrap("✗ "+s.err.Error(), max(s.w-2, 10)) {
		if i > 0 {
			ln = "  " + ln
		}
		out = append(out, s.c.Theme.Error.Render(ln))
	}
	return out
}
