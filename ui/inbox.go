package ui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
)

// ActsLoadedMsg is sent by the inbox when the record log has been read.
type ActsLoadedMsg struct {
	Acts []Act
	Err  error
}

// ActPreviewMsg is sent by the inbox with the records an action would write.
type ActPreviewMsg struct {
	Action Action
	Text   string
	Err    error
}

// ActAppliedMsg is sent by the inbox when an action's records were written.
type ActAppliedMsg struct {
	Action Action
	Act    *Act
	Err    error
}

// InboxKeys are the inbox's keys.
type InboxKeys struct {
	List                              ListKeys
	Filter, Project, Settled          key.Binding
	Done, Drop, Already, Reopen, Note key.Binding
	Yes, No, Pick                     key.Binding
	Edit                              EditKeys
}

// DefaultInboxKeys returns the inbox's keys.
func DefaultInboxKeys() InboxKeys {
	return InboxKeys{
		List:    DefaultListKeys(),
		Filter:  kb([]string{"/"}, "/", "filter"),
		Project: kb([]string{"tab"}, "tab", "next project"),
		Settled: kb([]string{"S"}, "S", "show settled"),
		Done:    kb([]string{"d"}, "d", "settle: done"),
		Drop:    kb([]string{"x"}, "x", "settle: dropped"),
		Already: kb([]string{"a"}, "a", "settle: already done…"),
		Reopen:  kb([]string{"r"}, "r", "reopen"),
		Note:    kb([]string{"n"}, "n", "add a note"),
		Yes:     kb([]string{"y"}, "y", "write it"),
		No:      kb([]string{"esc", "n"}, "esc/n", "cancel"),
		Pick:    kb([]string{"enter"}, "enter", "pick"),
		Edit:    DefaultEditKeys(),
	}
}

const (
	inboxList = iota
	inboxFilter
	inboxNote
	inboxPick
	inboxPreview
)

// Inbox is the principal's inbox (`tp acts`, Acts 0.3 §2–§3): open acts
// across projects, and settling, reopening and annotating them. Every
// action shows the record it will write before writing it.
type InboxScreen struct {
	c    *Common
	keys InboxKeys
	w, h int

	loading bool
	err     error
	status  string

	acts     []Act
	hay      []string // lower-cased key, project and text per act
	projects []string
	proj     int // -1: every project
	settled  bool
	query    string
	visible  []int
	open     int // acts not settled, counted when the list changes
	cur, off int

	mode    int
	filter  textinput.Model
	note    textarea.Model
	pick    []int // candidates for same_as
	pickCur int
	pickOff int
	action  Action
	preview string
	prevOff int
	// pendingProject selects a project once the acts are loaded (opened
	// from the home screen).
	pendingProject string
}

// NewInbox returns the principal's inbox.
func NewInbox(c *Common) *InboxScreen {
	f := newTextInput(c.Theme)
	f.Prompt = "/ "
	f.Placeholder = "filter by key, project or text"
	n := newTextArea(c.Theme)
	n.Placeholder = "a note for the record"
	s := &InboxScreen{c: c, keys: DefaultInboxKeys(), proj: -1, filter: f, note: n, loading: true}
	s.SetSize(c.Width, c.Height-chrome)
	return s
}

// NewInboxWithActs returns an inbox already holding acts (tests, benchmarks).
func NewInboxWithActs(c *Common, acts []Act) *InboxScreen {
	s := NewInbox(c)
	s.setActs(acts)
	return s
}

func (s *InboxScreen) Title() string { return "acts" }
func (s *InboxScreen) Capturing() bool {
	return s.mode == inboxFilter || s.mode == inboxNote
}
func (s *InboxScreen) Busy() bool { return false }
func (s *InboxScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.filter.Width = max(w-4, 10)
	s.note.SetWidth(max(w-4, 10))
	s.note.SetHeight(max(min(h-14, 5), 2))
}

// Visible returns the acts shown, in order.
func (s *InboxScreen) Visible() []Act {
	out := make([]Act, len(s.visible))
	for i, j := range s.visible {
		out[i] = s.acts[j]
	}
	return out
}

// Selected is the act under the cursor.
func (s *InboxScreen) Selected() (Act, bool) {
	if len(s.visible) == 0 {
		return Act{}, false
	}
	return s.acts[s.visible[s.cur]], true
}

// Init loads the acts.
func (s *InboxScreen) Init() tea.Cmd {
	if !s.loading {
		return nil
	}
	src, ctx := s.c.Deps.Inbox, s.c.Ctx
	return func() tea.Msg {
		if src == nil {
			return ActsLoadedMsg{Err: fmt.Errorf("the acts record log is not available in this build")}
		}
		acts, err := src.LoadActs(ctx)
		return ActsLoadedMsg{Acts: acts, Err: err}
	}
}

func (s *InboxScreen) setActs(acts []Act) {
	s.loading = false
	s.acts = acts
	s.hay = make([]string, len(acts))
	seen := map[string]bool{}
	s.projects = s.projects[:0]
	for i, a := range acts {
		s.hay[i] = strings.ToLower(a.Key + "\x00" + a.Project + "\x00" + a.Text)
		if !seen[a.Project] {
			seen[a.Project] = true
			s.projects = append(s.projects, a.Project)
		}
	}
	sort.Strings(s.projects)
	s.refilter()
}

// refilter recomputes the visible rows; it keeps the selected act selected
// when it is still shown.
func (s *InboxScreen) refilter() {
	var keep string
	if a, ok := s.Selected(); ok {
		keep = a.Project + "\x00" + a.Key
	}
	s.open = 0
	for i := range s.acts {
		if s.acts[i].Status != "settled" {
			s.open++
		}
	}
	q := strings.ToLower(s.query)
	proj := ""
	if s.proj >= 0 && s.proj < len(s.projects) {
		proj = s.projects[s.proj]
	}
	s.visible = s.visible[:0]
	s.cur = 0
	for i := range s.acts {
		a := &s.acts[i]
		if !s.settled && a.Status == "settled" {
			continue
		}
		if proj != "" && a.Project != proj {
			continue
		}
		if q != "" && !strings.Contains(s.hay[i], q) {
			continue
		}
		if keep != "" && a.Project+"\x00"+a.Key == keep {
			s.cur = len(s.visible)
		}
		s.visible = append(s.visible, i)
	}
}

func (s *InboxScreen) listHeight() int { return max(min(len(s.visible), (s.h-3)/2), 1) }

// Update handles messages.
func (s *InboxScreen) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case ActsLoadedMsg:
		s.loading = false
		if msg.Err != nil {
			s.err = msg.Err
			return s, nil
		}
		s.setActs(msg.Acts)
		if s.pendingProject != "" {
			for i, p := range s.projects {
				if p == s.pendingProject {
					s.proj = i
				}
			}
			s.refilter()
		}
		return s, nil
	case ActPreviewMsg:
		if msg.Err != nil {
			s.err, s.mode = msg.Err, inboxList
			return s, nil
		}
		s.action, s.preview, s.mode, s.err, s.prevOff = msg.Action, msg.Text, inboxPreview, nil, 0
		return s, nil
	case ActAppliedMsg:
		s.mode = inboxList
		if msg.Err != nil {
			s.err = msg.Err
			return s, nil
		}
		s.err = nil
		s.status = "✓ written: " + describeAction(msg.Action)
		if msg.Act != nil {
			for i := range s.acts {
				if s.acts[i].Key == msg.Act.Key && s.acts[i].Project == msg.Act.Project {
					s.acts[i] = *msg.Act
				}
			}
			s.refilter()
		}
		return s, nil
	case tea.KeyMsg:
		return s.key(msg)
	}
	switch s.mode {
	case inboxFilter:
		var cmd tea.Cmd
		s.filter, cmd = s.filter.Update(msg)
		return s, cmd
	case inboxNote:
		var cmd tea.Cmd
		s.note, cmd = s.note.Update(msg)
		return s, cmd
	}
	return s, nil
}

func (s *InboxScreen) key(msg tea.KeyMsg) (Component, tea.Cmd) {
	k := s.keys
	switch s.mode {
	case inboxFilter:
		switch msg.String() {
		case "esc":
			s.filter.SetValue("")
			s.query = ""
			s.filter.Blur()
			s.mode = inboxList
			s.refilter()
			return s, nil
		case "enter", "down", "up":
			s.filter.Blur()
			s.mode = inboxList
			return s, nil
		}
		var cmd tea.Cmd
		s.filter, cmd = s.filter.Update(msg)
		if v := s.filter.Value(); v != s.query {
			s.query = v
			s.refilter()
		}
		return s, cmd
	case inboxNote:
		switch {
		case key.Matches(msg, k.Edit.Save):
			a, _ := s.Selected()
			txt := strings.TrimSpace(s.note.Value())
			s.note.Blur()
			if txt == "" {
				s.mode = inboxList
				return s, nil
			}
			return s, s.previewCmd(Action{Kind: ActNote, Key: a.Key, Project: a.Project, Note: txt})
		case key.Matches(msg, k.Edit.Cancel):
			s.note.Blur()
			s.mode = inboxList
			return s, nil
		}
		var cmd tea.Cmd
		s.note, cmd = s.note.Update(msg)
		return s, cmd
	case inboxPick:
		if c, ok := k.List.move(msg, s.pickCur, len(s.pick), s.h-6); ok {
			s.pickCur = c
			return s, nil
		}
		switch {
		case key.Matches(msg, k.Pick) && len(s.pick) > 0:
			a, _ := s.Selected()
			other := s.acts[s.pick[s.pickCur]]
			return s, s.previewCmd(Action{Kind: ActSettle, Key: a.Key, Project: a.Project, Outcome: "already_done", SameAs: other.Key})
		case msg.String() == "esc":
			s.mode = inboxList
		}
		return s, nil
	case inboxPreview:
		if off, ok := k.List.move(msg, s.prevOff, 1<<30, max(s.h-8, 1)); ok {
			s.prevOff = off
			return s, nil
		}
		switch {
		case key.Matches(msg, k.Yes):
			return s, s.applyCmd(s.action)
		case key.Matches(msg, k.No):
			s.mode = inboxList
		}
		return s, nil
	}

	if c, ok := k.List.move(msg, s.cur, len(s.visible), s.listHeight()); ok {
		s.cur = c
		return s, nil
	}
	switch {
	case msg.String() == "esc":
		if s.query != "" || s.proj >= 0 {
			s.query, s.proj = "", -1
			s.filter.SetValue("")
			s.refilter()
			return s, nil
		}
		return s, pop
	case key.Matches(msg, k.Filter):
		s.mode = inboxFilter
		return s, s.filter.Focus()
	case key.Matches(msg, k.Project):
		s.proj++
		if s.proj >= len(s.projects) {
			s.proj = -1
		}
		s.refilter()
		return s, nil
	case key.Matches(msg, k.Settled):
		s.settled = !s.settled
		s.refilter()
		return s, nil
	}
	a, ok := s.Selected()
	if !ok {
		return s, nil
	}
	open := a.Status != "settled"
	switch {
	case key.Matches(msg, k.Done) && open:
		return s, s.previewCmd(Action{Kind: ActSettle, Key: a.Key, Project: a.Project, Outcome: "done"})
	case key.Matches(msg, k.Drop) && open:
		return s, s.previewCmd(Action{Kind: ActSettle, Key: a.Key, Project: a.Project, Outcome: "dropped"})
	case key.Matches(msg, k.Already) && open:
		s.pick = s.pick[:0]
		for i, o := range s.acts {
			if o.Project == a.Project && o.Key != a.Key {
				s.pick = append(s.pick, i)
			}
		}
		s.pickCur, s.pickOff, s.mode = 0, 0, inboxPick
		return s, nil
	case key.Matches(msg, k.Reopen) && !open:
		return s, s.previewCmd(Action{Kind: ActReopen, Key: a.Key, Project: a.Project})
	case key.Matches(msg, k.Note):
		s.note.SetValue("")
		s.mode = inboxNote
		return s, s.note.Focus()
	}
	return s, nil
}

func (s *InboxScreen) previewCmd(a Action) tea.Cmd {
	src, ctx := s.c.Deps.Inbox, s.c.Ctx
	return func() tea.Msg {
		if src == nil {
			return ActPreviewMsg{Action: a, Err: fmt.Errorf("no record log")}
		}
		t, err := src.Preview(ctx, a)
		return ActPreviewMsg{Action: a, Text: t, Err: err}
	}
}

func (s *InboxScreen) applyCmd(a Action) tea.Cmd {
	src, ctx := s.c.Deps.Inbox, s.c.Ctx
	return func() tea.Msg {
		act, err := src.Apply(ctx, a)
		return ActAppliedMsg{Action: a, Act: act, Err: err}
	}
}

func describeAction(a Action) string {
	switch a.Kind {
	case ActSettle:
		s := "settled " + line(a.Key) + " as " + a.Outcome
		if a.SameAs != "" {
			s += " (same as " + line(a.SameAs) + ")"
		}
		return s
	case ActReopen:
		return "reopened " + line(a.Key)
	case ActNote:
		return "note on " + line(a.Key)
	}
	return a.Kind
}

// ShortHelp lists the keys of the current mode.
func (s *InboxScreen) ShortHelp() []key.Binding {
	k := s.keys
	switch s.mode {
	case inboxFilter:
		return []key.Binding{kb([]string{"enter"}, "enter", "keep filter"), kb([]string{"esc"}, "esc", "clear")}
	case inboxNote:
		return []key.Binding{k.Edit.Save, k.Edit.Cancel}
	case inboxPick:
		return []key.Binding{k.Pick, k.List.Down, kb([]string{"esc"}, "esc", "cancel")}
	case inboxPreview:
		return []key.Binding{k.Yes, k.No, k.List.Down}
	}
	if a, ok := s.Selected(); ok && a.Status == "settled" {
		return []key.Binding{k.Reopen, k.Note, k.Filter, k.Project, k.Settled}
	}
	return []key.Binding{k.Done, k.Drop, k.Already, k.Note, k.Filter, k.Project}
}

// FullHelp lists every key.
func (s *InboxScreen) FullHelp() [][]key.Binding {
	k := s.keys
	return [][]key.Binding{
		{k.List.Up, k.List.Down, k.List.PageUp, k.List.PageDown, k.List.Top, k.List.Bottom},
		{k.Filter, k.Project, k.Settled},
		{k.Done, k.Drop, k.Already, k.Reopen, k.Note},
	}
}

// View draws the inbox.
func (s *InboxScreen) View() string {
	th := s.c.Theme
	if s.loading {
		return pad([]string{th.Muted.Render("Reading the record log…")}, s.w, s.h)
	}
	if s.err != nil && len(s.acts) == 0 {
		return pad(append([]string{th.Error.Render("✗ could not read the acts")}, wrap(s.err.Error(), s.w)...), s.w, s.h)
	}
	switch s.mode {
	case inboxPreview:
		return s.previewView()
	case inboxPick:
		return s.pickView()
	}
	var out []string
	proj := "all projects"
	if s.proj >= 0 {
		proj = "project " + line(s.projects[s.proj])
	}
	head := th.Subtitle.Render(fmt.Sprintf("%d open", s.open)) + th.Muted.Render(fmt.Sprintf(" · showing %d · %s", len(s.visible), proj))
	if s.settled {
		head += th.Muted.Render(" · settled shown")
	}
	out = append(out, head)
	if s.mode == inboxFilter || s.query != "" {
		out = append(out, s.filter.View())
	}
	if len(s.visible) == 0 {
		out = append(out, "", th.Muted.Render("Nothing waiting on you here."))
		return pad(s.withStatus(out), s.w, s.h)
	}
	lh := s.listHeight()
	s.off = follow(s.off, s.cur, lh, len(s.visible))
	for i := s.off; i < min(s.off+lh, len(s.visible)); i++ {
		a := &s.acts[s.visible[i]]
		row := s.row(a)
		if i == s.cur {
			out = append(out, th.Cursor.Render("▸ ")+fit(row, s.w-2))
		} else {
			out = append(out, "  "+fit(row, s.w-2))
		}
	}
	out = append(out, th.Muted.Render(strings.Repeat("─", max(s.w, 1))))
	if s.mode == inboxNote {
		a, _ := s.Selected()
		out = append(out, th.Subtitle.Render("Note on ")+line(a.Key)+th.Muted.Render(" (ctrl+s review · esc discard)"))
		out = append(out, strings.Split(s.note.View(), "\n")...)
	} else {
		out = append(out, s.detail()...)
	}
	return pad(s.withStatus(out), s.w, s.h)
}

func (s *InboxScreen) withStatus(out []string) []string {
	th := s.c.Theme
	var tail []string
	if s.err != nil {
		tail = append(tail, th.Error.Render("✗ ")+line(s.err.Error()))
	} else if s.status != "" {
		tail = append(tail, th.Pass.Render(s.status))
	}
	if len(tail) == 0 {
		return out
	}
	if len(out) > s.h-len(tail) {
		out = out[:max(s.h-len(tail), 0)]
	}
	for len(out) < s.h-len(tail) {
		out = append(out, "")
	}
	return append(out, tail...)
}

func (s *InboxScreen) row(a *Act) string {
	th := s.c.Theme
	mark := "○"
	switch {
	case a.Status == "settled":
		mark = th.Pass.Render("✓")
	case a.Withdrawn:
		mark = th.Warn.Render("⊘")
	case len(a.Claims) > 0:
		mark = th.Warn.Render("?")
	}
	due := ""
	if a.Due != "" {
		due = th.Warn.Render(" due " + line(a.Due))
	}
	return mark + " " + th.Muted.Render(fmt.Sprintf("%-10s", fit(line(a.Project), 10))) + " " + line(a.Text) + due
}

func (s *InboxScreen) detail() []string {
	th := s.c.Theme
	a, ok := s.Selected()
	if !ok {
		return nil
	}
	var out []string
	for _, ln := range wrap(a.Text, s.w-2) {
		out = append(out, th.Text.Render(ln))
	}
	meta := th.Muted.Render("key ") + line(a.Key) + th.Muted.Render(" · project ") + line(a.Project) + th.Muted.Render(fmt.Sprintf(" · terms rev %d", a.TermsRev))
	if a.Due != "" {
		meta += th.Warn.Render(" · due " + line(a.Due))
	}
	out = append(out, meta)
	if a.Status == "settled" {
		st := th.Pass.Render("✓ settled: " + line(a.Outcome))
		if a.SettledRev > 0 && a.SettledRev < a.TermsRev {
			st += th.Warn.Render(fmt.Sprintf(" · the terms changed after (settled at rev %d)", a.SettledRev))
		}
		out = append(out, st+th.Muted.Render(" · r reopens"))
		// Who signed it (D19), on its own line: a fingerprint is long.
		if a.SignedBy != "" {
			out = append(out, th.Muted.Render("  signed by ")+line(a.SignedBy))
		} else {
			out = append(out, th.Warn.Render("  unsigned: the project has no principal"))
		}
	}
	if a.Withdrawn && a.Status != "settled" {
		for _, ln := range wrap("⊘ no longer needed, says the requester — drop it? (x drops; it stays open until you settle it)", s.w) {
			out = append(out, th.Warn.Render(ln))
		}
	}
	for _, c := range a.Claims {
		verb := "done"
		if c.Outcome == "dropped" {
			verb = "dropped"
		}
		// Wrapped, not cut: the basis and the question are the point.
		ln := fmt.Sprintf("? %s says this is %s: %s", line(c.By), verb, line(c.Basis))
		if a.Status != "settled" {
			ln += " — did you do it? (d yes · x no, drop it)"
		}
		for _, w := range wrap(ln, s.w) {
			out = append(out, th.Warn.Render(w))
		}
	}
	if len(a.History) > 1 {
		out = append(out, th.Muted.Render("history"))
		for _, r := range a.History {
			out = append(out, th.Muted.Render(fmt.Sprintf("  %s rev %d %s ", line(r.Type), r.Rev, line(r.TS)))+line(r.Text))
		}
	}
	for _, n := range a.Notes {
		out = append(out, th.Muted.Render("note: ")+line(n))
	}
	return out
}

func (s *InboxScreen) previewView() string {
	th := s.c.Theme
	head := []string{th.Warn.Render("Write this? ") + th.Subtitle.Render(describeAction(s.action)), th.Muted.Render("These records go into the record log, exactly as shown:"), ""}
	var body []string
	for _, ln := range strings.Split(text(s.preview), "\n") {
		body = append(body, "  "+ln)
	}
	// The dialog's frame takes 2 lines, the key line 2 more; the records
	// scroll inside what is left so every line can be read before y.
	room := max(s.h-4-len(head), 1)
	vis, off := window(body, s.prevOff, room)
	s.prevOff = off
	inner := append(append([]string{}, head...), vis...)
	more := ""
	if len(body) > room {
		more = th.Muted.Render(fmt.Sprintf("  lines %d–%d of %d · ↑/↓ scroll", off+1, off+len(vis), len(body)))
	}
	box := strings.Split(th.Dialog.Width(max(s.w-2, 10)).Render(strings.Join(inner, "\n")), "\n")
	box = append(box, more, th.Key.Render("y")+" write it · "+th.Key.Render("n/esc")+" cancel (nothing is written)")
	return pad(box, s.w, s.h)
}

func (s *InboxScreen) pickView() string {
	th := s.c.Theme
	a, _ := s.Selected()
	out := []string{th.Subtitle.Render("Already done: which act does it repeat?"), th.Muted.Render("for ") + line(a.Text), th.Muted.Render("a same_as relation is written with the settlement"), ""}
	if len(s.pick) == 0 {
		out = append(out, th.Muted.Render("No other act in this project. esc to go back."))
		return pad(out, s.w, s.h)
	}
	lh := max(s.h-len(out), 1)
	s.pickOff = follow(s.pickOff, s.pickCur, lh, len(s.pick))
	for i := s.pickOff; i < min(s.pickOff+lh, len(s.pick)); i++ {
		row := s.row(&s.acts[s.pick[i]])
		if i == s.pickCur {
			out = append(out, th.Cursor.Render("▸ ")+fit(row, s.w-2))
		} else {
			out = append(out, "  "+fit(row, s.w-2))
		}
	}
	return pad(out, s.w, s.h)
}
