package ui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/components"
)

// ActsLoadedMsg is sent by the inbox when the record log has been read.
type ActsLoadedMsg struct {
	Acts []common.Act
	// Findings are what the record log holds beside the acts that the
	// person must be told (records not applied and why, files not read):
	// the inbox shows them as tp acts list does.
	Findings []string
	Err      error
}

// ActPreviewMsg is sent by the inbox with the records an action would write.
type ActPreviewMsg struct {
	Action common.Action
	Text   string
	Err    error
}

// ActAppliedMsg is sent by the inbox when an action's records were written.
type ActAppliedMsg struct {
	Action common.Action
	Act    *common.Act
	Err    error
}

// ActsPreviewMsg is sent by the inbox with the records a batch of actions
// on the marked acts would write (issue 17).
type ActsPreviewMsg struct {
	Actions []common.Action
	Text    string
	Err     error
}

// ActsAppliedMsg is sent by the inbox when a batch was written, or not at
// all (all or nothing).
type ActsAppliedMsg struct {
	Actions []common.Action
	Acts    []*common.Act
	Err     error
}

// UndoInfoMsg is sent by the inbox with what u would do to the settlement
// just written (issue 17).
type UndoInfoMsg struct {
	Info common.UndoInfo
	Err  error
}

// DiscardedMsg is sent by the inbox when u removed a settlement nobody saw.
type DiscardedMsg struct {
	Acts []*common.Act
	Err  error
}

// InboxKeys are the inbox's keys.
type InboxKeys struct {
	List                              ListKeys
	Filter, Project, Settled          key.Binding
	Done, Drop, Already, Reopen, Note key.Binding
	Yes, No, Pick                     key.Binding
	// None answers the same_as picker: the act repeats no other.
	None key.Binding
	// Back clears the filter, then goes back to the screen before; on
	// the first screen it does nothing (q quits).
	Back key.Binding
	// FilterKeep and FilterClear end typing a filter.
	FilterKeep, FilterClear key.Binding
	// NoteReview shows the note's record before it is written.
	NoteReview key.Binding
	// Mark marks the act under the cursor (or unmarks it); d, x and n
	// then act on every marked act at once. ClearMarks unmarks them all.
	Mark, ClearMarks key.Binding
	// Undo takes back the settlement just written: removed while nobody
	// can have seen it, else reopened with a signed record (shown first).
	Undo key.Binding
	Edit EditKeys
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
		None:    kb([]string{"n"}, "n", "repeats none"),
		Back:    kb([]string{"esc"}, "esc", "clear filter / back"),
		// down and up also leave the field, to the list.
		FilterKeep:  kb([]string{"enter", "down", "up"}, "enter", "keep filter"),
		FilterClear: kb([]string{"esc"}, "esc", "clear"),
		NoteReview:  kb([]string{"ctrl+s"}, "ctrl+s", "review"),
		Mark:        kb([]string{" "}, "space", "mark"),
		ClearMarks:  kb([]string{"c"}, "c", "clear marks"),
		Undo:        kb([]string{"u"}, "u", "undo the settlement"),
		Edit:        DefaultEditKeys(),
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
	c    *common.Common
	keys InboxKeys
	w, h int

	loading bool
	err     error
	status  string

	acts     []common.Act
	findings []string // what the log holds beside the acts (D19: never dropped)
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
	action  common.Action
	// actions is the batch the preview shows (marked acts), nil for one.
	actions []common.Action
	// marked are the marked acts, by project and key: they survive
	// filtering, scrolling and reloading.
	marked map[string]bool
	// undo is what u would do to the settlement just written; nil when
	// there is none.
	undo    *common.UndoInfo
	preview string
	prevOff int
	// pendingProject selects a project once the acts are loaded (opened
	// from the home screen).
	pendingProject string
}

// NewInbox returns the principal's inbox.
func NewInbox(c *common.Common) *InboxScreen {
	f := components.NewTextInput(c.Theme)
	f.Prompt = "/ "
	f.Placeholder = "filter by key, project or text"
	n := components.NewTextArea(c.Theme)
	n.Placeholder = "a note for the record"
	s := &InboxScreen{c: c, keys: DefaultInboxKeys(), proj: -1, filter: f, note: n, loading: true, marked: map[string]bool{}}
	s.SetSize(c.Width, c.Height-common.Chrome)
	return s
}

// NewInboxWithActs returns an inbox already holding acts (tests, benchmarks).
func NewInboxWithActs(c *common.Common, acts []common.Act) *InboxScreen {
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
func (s *InboxScreen) Visible() []common.Act {
	out := make([]common.Act, len(s.visible))
	for i, j := range s.visible {
		out[i] = s.acts[j]
	}
	return out
}

// Selected is the act under the cursor.
func (s *InboxScreen) Selected() (common.Act, bool) {
	if len(s.visible) == 0 {
		return common.Act{}, false
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
		list, err := src.LoadActs(ctx)
		return ActsLoadedMsg{Acts: list.Acts, Findings: list.Findings, Err: err}
	}
}

func (s *InboxScreen) setActs(acts []common.Act) {
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
func (s *InboxScreen) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case ActsLoadedMsg:
		s.loading = false
		if msg.Err != nil {
			s.err = msg.Err
			return s, nil
		}
		s.findings = msg.Findings
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
		s.action, s.actions, s.preview, s.mode, s.err, s.prevOff = msg.Action, nil, msg.Text, inboxPreview, nil, 0
		return s, nil
	case ActsPreviewMsg:
		if msg.Err != nil {
			// All or nothing: the error names each act and why.
			s.err, s.mode = msg.Err, inboxList
			return s, nil
		}
		s.actions, s.preview, s.mode, s.err, s.prevOff = msg.Actions, msg.Text, inboxPreview, nil, 0
		s.action = msg.Actions[0]
		return s, nil
	case ActsAppliedMsg:
		s.mode = inboxList
		if msg.Err != nil {
			s.err = msg.Err
			return s, nil
		}
		s.err = nil
		s.status = "✓ written: " + describeActions(msg.Actions)
		for _, act := range msg.Acts {
			s.replace(act)
		}
		s.marked = map[string]bool{}
		s.undo = nil
		s.refilter()
		return s, s.undoInfoCmd(msg.Actions)
	case UndoInfoMsg:
		s.undo = nil
		if msg.Err == nil && len(msg.Info.Acts) > 0 {
			info := msg.Info
			s.undo = &info
		}
		return s, nil
	case DiscardedMsg:
		if msg.Err != nil {
			s.err = msg.Err
			return s, nil
		}
		s.err, s.undo = nil, nil
		for _, act := range msg.Acts {
			s.replace(act)
		}
		s.status = "↶ discarded: the settlement of " + components.Count(len(msg.Acts), "act", "acts") + " was removed; it had not left this machine"
		s.refilter()
		return s, nil
	case ActAppliedMsg:
		s.mode = inboxList
		if msg.Err != nil {
			s.err = msg.Err
			return s, nil
		}
		s.err = nil
		s.status = "✓ written: " + describeAction(msg.Action)
		s.undo = nil
		if msg.Act != nil {
			for i := range s.acts {
				if s.acts[i].Key == msg.Act.Key && s.acts[i].Project == msg.Act.Project {
					s.acts[i] = *msg.Act
				}
			}
			s.refilter()
		}
		return s, s.undoInfoCmd([]common.Action{msg.Action})
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

func (s *InboxScreen) key(msg tea.KeyMsg) (common.Component, tea.Cmd) {
	k := s.keys
	switch s.mode {
	case inboxFilter:
		switch {
		case key.Matches(msg, k.FilterClear):
			s.filter.SetValue("")
			s.query = ""
			s.filter.Blur()
			s.mode = inboxList
			s.refilter()
			return s, nil
		case key.Matches(msg, k.FilterKeep):
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
		case key.Matches(msg, k.NoteReview):
			a, _ := s.Selected()
			txt := strings.TrimSpace(s.note.Value())
			s.note.Blur()
			if txt == "" {
				s.mode = inboxList
				return s, nil
			}
			if len(s.marked) > 0 {
				return s, s.previewAllCmd(s.markedActions(common.Action{Kind: common.ActNote, Note: txt}))
			}
			return s, s.previewCmd(common.Action{Kind: common.ActNote, Key: a.Key, Project: a.Project, Note: txt})
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
			return s, s.previewCmd(common.Action{Kind: common.ActSettle, Key: a.Key, Project: a.Project, Outcome: "already_done", SameAs: other.Key, TermsRev: a.TermsRev})
		case key.Matches(msg, k.None):
			// §2: already_done SHOULD name the item it repeats; when it
			// repeats none (done before it was raised), say so explicitly.
			a, _ := s.Selected()
			return s, s.previewCmd(common.Action{Kind: common.ActSettle, Key: a.Key, Project: a.Project, Outcome: "already_done", TermsRev: a.TermsRev})
		case key.Matches(msg, k.Back):
			s.mode = inboxList
		}
		return s, nil
	case inboxPreview:
		if off, ok := k.List.move(msg, s.prevOff, len(s.previewBody()), s.previewRoom()); ok {
			s.prevOff = components.Clamp(off, len(s.previewBody()), s.previewRoom())
			return s, nil
		}
		switch {
		case key.Matches(msg, k.Yes) && s.actions != nil:
			return s, s.applyAllCmd(s.actions)
		case key.Matches(msg, k.Yes):
			return s, s.applyCmd(s.action)
		case key.Matches(msg, k.No):
			s.mode, s.actions = inboxList, nil
		}
		return s, nil
	}

	// Space marks before it pages: in the list it is the mark key.
	switch {
	case key.Matches(msg, k.Mark):
		if a, ok := s.Selected(); ok {
			id := markID(a)
			if s.marked[id] {
				delete(s.marked, id)
			} else {
				s.marked[id] = true
			}
			if s.cur < len(s.visible)-1 {
				s.cur++ // on to the next, as a mark key does
			}
		}
		return s, nil
	case key.Matches(msg, k.ClearMarks) && len(s.marked) > 0:
		s.marked = map[string]bool{}
		return s, nil
	case key.Matches(msg, k.Undo) && s.undo != nil:
		u := *s.undo
		if !u.Seen {
			return s, s.discardCmd()
		}
		// Seen: a signed reopened, shown first like every record.
		if len(u.Acts) == 1 {
			return s, s.previewCmd(u.Acts[0])
		}
		return s, s.previewAllCmd(u.Acts)
	}

	if c, ok := k.List.move(msg, s.cur, len(s.visible), s.listHeight()); ok {
		s.cur = c
		return s, nil
	}
	switch {
	case key.Matches(msg, k.Back):
		if s.query != "" || s.proj >= 0 {
			s.query, s.proj = "", -1
			s.filter.SetValue("")
			s.refilter()
			return s, nil
		}
		// Back to the home screen when it opened the inbox; never a quit.
		return s, common.Back
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
	if len(s.marked) > 0 {
		// d, x and n act on every marked act: one preview, one write.
		switch {
		case key.Matches(msg, k.Done):
			return s, s.previewAllCmd(s.markedActions(common.Action{Kind: common.ActSettle, Outcome: "done"}))
		case key.Matches(msg, k.Drop):
			return s, s.previewAllCmd(s.markedActions(common.Action{Kind: common.ActSettle, Outcome: "dropped"}))
		case key.Matches(msg, k.Note):
			s.note.SetValue("")
			s.mode = inboxNote
			return s, s.note.Focus()
		case key.Matches(msg, k.Already, k.Reopen):
			s.err = fmt.Errorf("%s acts on one act at a time: c clears the %s", map[bool]string{true: "already done (it names the act it repeats)", false: "reopen"}[key.Matches(msg, k.Already)], components.Count(len(s.marked), "mark", "marks"))
			return s, nil
		}
	}
	a, ok := s.Selected()
	if !ok {
		return s, nil
	}
	open := a.Status != "settled"
	switch {
	case key.Matches(msg, k.Done) && open:
		return s, s.previewCmd(common.Action{Kind: common.ActSettle, Key: a.Key, Project: a.Project, Outcome: "done", TermsRev: a.TermsRev})
	case key.Matches(msg, k.Drop) && open:
		return s, s.previewCmd(common.Action{Kind: common.ActSettle, Key: a.Key, Project: a.Project, Outcome: "dropped", TermsRev: a.TermsRev})
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
		return s, s.previewCmd(common.Action{Kind: common.ActReopen, Key: a.Key, Project: a.Project})
	case key.Matches(msg, k.Note):
		s.note.SetValue("")
		s.mode = inboxNote
		return s, s.note.Focus()
	}
	return s, nil
}

func (s *InboxScreen) previewCmd(a common.Action) tea.Cmd {
	src, ctx := s.c.Deps.Inbox, s.c.Ctx
	return func() tea.Msg {
		if src == nil {
			return ActPreviewMsg{Action: a, Err: fmt.Errorf("no record log")}
		}
		t, err := src.Preview(ctx, a)
		return ActPreviewMsg{Action: a, Text: t, Err: err}
	}
}

func (s *InboxScreen) applyCmd(a common.Action) tea.Cmd {
	src, ctx := s.c.Deps.Inbox, s.c.Ctx
	return func() tea.Msg {
		act, err := src.Apply(ctx, a)
		return ActAppliedMsg{Action: a, Act: act, Err: err}
	}
}

// markID names an act among the marks.
func markID(a common.Act) string { return a.Project + "\x00" + a.Key }

// markedActions is a for every marked act, in the list's order.
func (s *InboxScreen) markedActions(a common.Action) []common.Action {
	var out []common.Action
	for _, act := range s.acts {
		if s.marked[markID(act)] {
			b := a
			b.Key, b.Project, b.TermsRev = act.Key, act.Project, act.TermsRev
			out = append(out, b)
		}
	}
	return out
}

// Marked counts the marked acts, and those of them the list does not show.
func (s *InboxScreen) Marked() (n, hidden int) {
	shown := map[string]bool{}
	for _, i := range s.visible {
		shown[markID(s.acts[i])] = true
	}
	for id := range s.marked {
		n++
		if !shown[id] {
			hidden++
		}
	}
	return n, hidden
}

func (s *InboxScreen) replace(act *common.Act) {
	if act == nil {
		return
	}
	for i := range s.acts {
		if s.acts[i].Key == act.Key && s.acts[i].Project == act.Project {
			s.acts[i] = *act
		}
	}
}

// undoInfoCmd asks what u would do to the settlement just written.
func (s *InboxScreen) undoInfoCmd(as []common.Action) tea.Cmd {
	if len(as) == 0 || as[0].Kind != common.ActSettle {
		return nil
	}
	src, ctx := s.c.Deps.Inbox, s.c.Ctx
	return func() tea.Msg {
		info, err := src.UndoInfo(ctx)
		return UndoInfoMsg{Info: info, Err: err}
	}
}

func (s *InboxScreen) discardCmd() tea.Cmd {
	src, ctx := s.c.Deps.Inbox, s.c.Ctx
	return func() tea.Msg {
		acts, err := src.Discard(ctx)
		return DiscardedMsg{Acts: acts, Err: err}
	}
}

func (s *InboxScreen) previewAllCmd(as []common.Action) tea.Cmd {
	src, ctx := s.c.Deps.Inbox, s.c.Ctx
	return func() tea.Msg {
		if src == nil {
			return ActsPreviewMsg{Actions: as, Err: fmt.Errorf("no record log")}
		}
		t, err := src.PreviewAll(ctx, as)
		return ActsPreviewMsg{Actions: as, Text: t, Err: err}
	}
}

func (s *InboxScreen) applyAllCmd(as []common.Action) tea.Cmd {
	src, ctx := s.c.Deps.Inbox, s.c.Ctx
	return func() tea.Msg {
		acts, err := src.ApplyAll(ctx, as)
		return ActsAppliedMsg{Actions: as, Acts: acts, Err: err}
	}
}

// describeActions says what a batch does, in one line.
func describeActions(as []common.Action) string {
	if len(as) == 1 {
		return describeAction(as[0])
	}
	n := components.Count(len(as), "act", "acts")
	switch a := as[0]; a.Kind {
	case common.ActSettle:
		return "settled " + n + " as " + a.Outcome
	case common.ActNote:
		return "a note on " + n
	case common.ActReopen:
		return "reopened " + n
	}
	return as[0].Kind + " " + n
}

func describeAction(a common.Action) string {
	switch a.Kind {
	case common.ActSettle:
		s := "settled " + components.Line(a.Key) + " as " + a.Outcome
		if a.SameAs != "" {
			s += " (same as " + components.Line(a.SameAs) + ")"
		}
		return s
	case common.ActReopen:
		return "reopened " + components.Line(a.Key)
	case common.ActNote:
		return "note on " + components.Line(a.Key)
	}
	return a.Kind
}

// ShortHelp lists the keys of the current mode.
func (s *InboxScreen) ShortHelp() []key.Binding {
	k := s.keys
	switch s.mode {
	case inboxFilter:
		return []key.Binding{k.FilterKeep, k.FilterClear}
	case inboxNote:
		return []key.Binding{k.NoteReview, k.Edit.Cancel}
	case inboxPick:
		return []key.Binding{k.Pick, k.None, k.List.Down, kb([]string{"esc"}, "esc", "cancel")}
	case inboxPreview:
		return []key.Binding{k.Yes, k.No, k.List.Down}
	}
	if len(s.marked) > 0 {
		return []key.Binding{k.Done, k.Drop, k.Note, k.Mark, k.ClearMarks, k.Filter}
	}
	if s.undo != nil {
		return []key.Binding{k.Undo, k.Mark, k.Done, k.Drop, k.Note, k.Filter}
	}
	if a, ok := s.Selected(); !ok {
		return []key.Binding{k.Filter, k.Project, k.Settled} // nothing to settle or note
	} else if a.Status == "settled" {
		return []key.Binding{k.Reopen, k.Note, k.Filter, k.Project, k.Settled}
	}
	return []key.Binding{k.Done, k.Drop, k.Already, k.Note, k.Filter, k.Project}
}

// FullHelp lists every key.
func (s *InboxScreen) FullHelp() [][]key.Binding {
	k := s.keys
	return [][]key.Binding{
		{k.List.Up, k.List.Down, k.List.PageUp, k.List.PageDown, k.List.Top, k.List.Bottom},
		{k.Filter, k.Project, k.Settled, k.Back},
		{k.Done, k.Drop, k.Already, k.Reopen, k.Note},
		{k.Mark, k.ClearMarks, k.Undo},
	}
}
