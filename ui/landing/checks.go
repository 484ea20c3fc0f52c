package landing

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/internal/howrun"
	"github.com/tp-dev/tp/ui/common"
	c "github.com/tp-dev/tp/ui/components"
)

// HowDoneMsg is sent by the checks step when a confirmed command ended.
type HowDoneMsg struct {
	CheckID string
	Result  howrun.Result
	Err     error
}

// ChecksKeys are the checks step's keys.
type ChecksKeys struct {
	List                        c.ListKeys
	Run, Edit, Pass, Fail, Skip key.Binding
	OutUp, OutDown              key.Binding
	HowUp, HowDown              key.Binding
	Cancel                      key.Binding
}

// DefaultChecksKeys returns the checks step's keys.
func DefaultChecksKeys() ChecksKeys {
	return ChecksKeys{
		List:    c.DefaultListKeys(),
		Run:     c.KB([]string{"r"}, "r", "run the suggested command…"),
		Edit:    c.KB([]string{"e"}, "e", "edit the command, then run…"),
		Pass:    c.KB([]string{"p"}, "p", "mark passed"),
		Fail:    c.KB([]string{"f"}, "f", "mark failed"),
		Skip:    c.KB([]string{"s"}, "s", "mark skipped"),
		OutUp:   c.KB([]string{"shift+up", "K"}, "K", "scroll output up"),
		OutDown: c.KB([]string{"shift+down", "J"}, "J", "scroll output down"),
		HowUp:   c.KB([]string{"["}, "[", "scroll the check and its command up"),
		HowDown: c.KB([]string{"]"}, "]", "scroll the check and its command down"),
		Cancel:  c.KB([]string{"ctrl+c"}, "ctrl+c", "cancel"),
	}
}

// ChecksStep is step 2, the required landing checks before anything else
// (§4.4), and on its own the checks of a stored passport (`tp checks ID`):
// the sender's `how` in its box, run only after the confirmation dialog
// (D12), its output in a pane, and the status the person attests.
type ChecksStep struct {
	s       *Session
	keys    ChecksKeys
	w, h    int
	body    int
	list    c.Cursor
	dialog  howDialog
	results map[string]howrun.Result
	out     viewport.Model

	// howOff scrolls the check under the cursor (its text, the sender's
	// command, the run) when it is taller than the rows it has; seen holds
	// the checks whose whole command has been on screen, and unseen the
	// mark the person asked for on one whose end was not (issue 17).
	howOff int
	seen   map[string]bool
	unseen string

	work      *common.Work
	spin      spinner.Model
	running   string    // id of the check whose command runs
	startedAt time.Time // when it started: run.ran_at
	cancelled bool
}

// NewChecksStep returns the checks step over s.
func NewChecksStep(s *Session) *ChecksStep {
	k := DefaultChecksKeys()
	m := &ChecksStep{s: s, keys: k, list: c.Cursor{Keys: k.List},
		dialog:  newHowDialog(s),
		results: map[string]howrun.Result{}, out: viewport.New(80, 5), seen: map[string]bool{},
		spin: spinner.New(spinner.WithSpinner(spinner.Dot), spinner.WithStyle(s.theme().Key))}
	return m
}

// SetSize sizes the step.
func (m *ChecksStep) SetSize(w, h, body int) {
	m.w, m.h, m.body = w, h, body
	m.out.Width = max(w-2, 10)
	m.dialog.setSize(w, h, body)
	if m.s.Plan != nil {
		m.list.Fit(len(m.s.Plan.Checks), m.listHeight())
		m.fitOut()
		m.noteSeen()
	}
}

// Modal is true while the confirmation dialog or the editor is open.
func (m *ChecksStep) Modal() bool { return m.dialog.open }

// Capturing is true while the person edits a command.
func (m *ChecksStep) Capturing() bool { return m.dialog.open && m.dialog.editing }

// Editor is the command editor's text and whether it is open.
func (m *ChecksStep) Editor() (string, bool) { return m.dialog.input.Value(), m.dialog.editing }

// Busy is true while a confirmed command runs.
func (m *ChecksStep) Busy() bool { return m.work != nil }

// ShortHelp lists the keys for what the step shows now.
func (m *ChecksStep) ShortHelp() []key.Binding {
	switch {
	case m.work != nil:
		return []key.Binding{m.keys.Cancel}
	case m.dialog.open:
		return m.dialog.shortHelp()
	}
	short := []key.Binding{c.KB([]string{"r"}, "r", "run…"), c.KB([]string{"p", "f", "s"}, "p/f/s", "passed/failed/skipped")}
	if m.s.Plan != nil && len(m.s.Plan.Checks) > 0 && len(m.detailLines()) > m.howRoom() {
		short = append(short, c.KB([]string{"[", "]"}, "[/]", "scroll"))
	}
	return short
}

// FullHelp lists every key of the step.
func (m *ChecksStep) FullHelp() [][]key.Binding {
	k := m.keys
	switch {
	case m.work != nil:
		return [][]key.Binding{{k.Cancel}}
	case m.dialog.open:
		return m.dialog.fullHelp()
	}
	return [][]key.Binding{
		{k.List.Up, k.List.Down, k.List.PageUp, k.List.PageDown},
		{k.Run, k.Edit, k.Pass, k.Fail, k.Skip, k.HowUp, k.HowDown, k.OutUp, k.OutDown},
	}
}

func (m *ChecksStep) listHeight() int {
	return max(min(len(m.s.Plan.Checks), (m.h-2)/3), 1)
}

// Update handles keys (when current) and the running command's messages.
func (m *ChecksStep) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case spinner.TickMsg:
		if m.work == nil {
			return nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return cmd
	case common.ProgressMsg:
		if m.work != nil && msg.Work == m.work.ID() {
			return m.work.Next()
		}
		return nil
	case common.WorkDoneMsg:
		if m.work == nil || msg.Work != m.work.ID() {
			return nil
		}
		m.work = nil
		if h, ok := msg.Value.(HowDoneMsg); ok {
			m.howArrived(h)
		}
		return nil
	case HowDoneMsg:
		m.howArrived(msg)
		return nil
	case common.CancelMsg:
		if m.work != nil {
			m.work.Cancel()
			m.cancelled = true
		}
		return nil
	case tea.KeyMsg:
		if m.work != nil { // a command is running: ctrl+c (the root) stops it
			return nil
		}
		if m.dialog.open {
			return m.dialogKey(msg)
		}
		return m.key(msg)
	}
	if m.dialog.editing {
		return m.dialog.updateEditor(msg)
	}
	return nil
}

func (m *ChecksStep) key(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	checks := m.s.Plan.Checks
	n := len(checks)
	if n == 0 {
		return nil
	}
	if m.list.Update(msg, n, m.listHeight()) {
		m.howOff, m.unseen = 0, ""
		m.showOutput()
		m.noteSeen()
		return nil
	}
	ch := checks[m.list.Cur]
	mark := func(status string) tea.Cmd {
		// A mark on a command whose end the person has not had on screen
		// is said aloud and wants the same key again (issue 17).
		if !m.seen[ch.ID] && m.unseen != status {
			m.unseen = status
			return nil
		}
		m.unseen = ""
		d := m.s.Checks[ch.ID]
		d.Status = status
		m.s.Checks[ch.ID] = d
		if m.list.Cur < n-1 {
			m.list.Set(m.list.Cur+1, n, m.listHeight())
			m.howOff = 0
			m.showOutput()
			m.noteSeen()
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Run):
		if ch.How == "" {
			return m.dialog.openEditing(m.list.Cur, "")
		}
		m.dialog.openConfirm(m.list.Cur, ch.How)
	case key.Matches(msg, k.Edit):
		return m.dialog.openEditing(m.list.Cur, ch.How)
	case key.Matches(msg, k.Pass):
		return mark("passed")
	case key.Matches(msg, k.Fail):
		return mark("failed")
	case key.Matches(msg, k.Skip):
		return mark("skipped")
	case key.Matches(msg, k.OutUp):
		m.fitOut()
		m.out.ScrollUp(1)
	case key.Matches(msg, k.OutDown):
		m.fitOut()
		m.out.ScrollDown(1)
	case key.Matches(msg, k.HowUp):
		m.howOff = max(m.howOff-max(m.howRoom()-2, 1), 0)
	case key.Matches(msg, k.HowDown):
		m.howOff = c.Clamp(m.howOff+max(m.howRoom()-2, 1), len(m.detailLines()), m.howRoom()-1)
		m.noteSeen()
	}
	if !key.Matches(msg, k.Pass, k.Fail, k.Skip) {
		m.unseen = ""
	}
	return nil
}

// listLines are the list of checks and the rule under it.
func (m *ChecksStep) listLines() []string {
	th, p := m.s.theme(), m.s.Plan
	from, to := m.list.Range(len(p.Checks), m.listHeight())
	var out []string
	for i := from; i < to; i++ {
		ch := p.Checks[i]
		req := th.Muted.Render("optional")
		if ch.Required {
			req = th.Warn.Render("required")
		}
		row := fmt.Sprintf("%s %s  %s", m.checkIcon(m.s.Status(ch)), req, c.Line(ch.Check))
		if i == m.list.Cur {
			out = append(out, th.Cursor.Render("▸ ")+c.Fit(row, m.w-2))
		} else {
			out = append(out, "  "+c.Fit(row, m.w-2))
		}
	}
	return append(out, th.Muted.Render(strings.Repeat("─", max(m.w, 1))))
}

// tailRows is how many rows the output pane and the line under it take.
func (m *ChecksStep) tailRows() int {
	ch := m.s.Plan.Checks[m.list.Cur]
	if _, ok := m.results[ch.ID]; !ok || m.running == ch.ID {
		return 0
	}
	return 1 + max(min(3, m.body), 1)
}

// howRoom is the rows the check under the cursor has: what the list and the
// output pane leave.
func (m *ChecksStep) howRoom() int {
	room := m.body - len(m.listLines()) - m.tailRows()
	if m.unseen != "" {
		room--
	}
	return max(room, 1)
}

// noteSeen records that the whole command of the check under the cursor is
// (or was) on screen.
func (m *ChecksStep) noteSeen() {
	if len(m.s.Plan.Checks) == 0 {
		return
	}
	ch := m.s.Plan.Checks[m.list.Cur]
	d, room := m.detailLines(), m.howRoom()
	if len(d) <= room || m.howOff+room-1 >= len(d) {
		m.seen[ch.ID] = true
	}
}

func (m *ChecksStep) dialogKey(msg tea.KeyMsg) tea.Cmd {
	run, cmd := m.dialog.key(msg)
	if run == nil {
		return cmd
	}
	ch := m.s.Plan.Checks[run.check]
	return m.startHow(ch.ID, run.command, run.fromSender)
}

func (m *ChecksStep) startHow(checkID, command string, fromSender bool) tea.Cmd {
	run := m.s.C.Deps.RunHow
	if run == nil {
		run = howrun.Run
	}
	conf := howrun.Confirmed{Command: command, Dir: m.s.Dir, FromSender: fromSender}
	m.startedAt = time.Now()
	opts := howrun.Options{Timeout: m.s.HowTimeout()}
	m.running = checkID
	w, cmd := common.StartWork(m.s.C.Ctx, func(ctx context.Context, _ common.Progress) (any, error) {
		r, err := run(ctx, conf, opts)
		return HowDoneMsg{CheckID: checkID, Result: r, Err: err}, nil
	})
	m.work = w
	return tea.Batch(cmd, m.spin.Tick)
}

func (m *ChecksStep) howArrived(h HowDoneMsg) {
	m.running = ""
	m.cancelled = false
	if h.Err != nil {
		m.results[h.CheckID] = howrun.Result{Command: "", ExitCode: -1, Output: []byte(h.Err.Error())}
	} else {
		m.results[h.CheckID] = h.Result
	}
	r := m.results[h.CheckID]
	d := m.s.Checks[h.CheckID]
	d.Ran, d.Command, d.Exit, d.RanAt = h.Err == nil, r.Command, r.ExitCode, m.startedAt
	m.s.Checks[h.CheckID] = d
	m.out.SetContent(c.Text(string(r.Output)))
	m.fitOut()
	m.out.GotoBottom()
	m.noteSeen()
}

// showOutput puts the output of the check under the cursor in the pane.
func (m *ChecksStep) showOutput() {
	m.out.SetContent(c.Text(string(m.results[m.s.Plan.Checks[m.list.Cur].ID].Output)))
	m.fitOut()
}

// fitOut gives the output pane the rows the step leaves it.
func (m *ChecksStep) fitOut() {
	if len(m.s.Plan.Checks) == 0 {
		return
	}
	if rest := m.tailRows() - 1; rest > 0 {
		m.out.Height = rest
	}
}

func (m *ChecksStep) checkIcon(s string) string {
	th := m.s.theme()
	switch s {
	case "passed":
		return th.Pass.Render("✓ passed ")
	case "failed":
		return th.Fail.Render("✗ failed ")
	case "skipped":
		return th.Warn.Render("– skipped")
	}
	return th.Muted.Render("○ pending")
}

// View draws the list, the check under the cursor and its run, or the
// dialog when it is open.
func (m *ChecksStep) View() string {
	if m.dialog.open {
		return m.dialog.view(m.body)
	}
	th := m.s.theme()
	if len(m.s.Plan.Checks) == 0 {
		return c.Pad([]string{th.Muted.Render("This pack asks for no landing checks.")}, m.w, m.body)
	}
	out := m.listLines()
	d, room := m.detailLines(), m.howRoom()
	vis, off := c.Scrolled(d, m.howOff, room, "[/] scroll the check")
	if len(d) > room && room > 1 {
		vis[len(vis)-1] = th.Warn.Render(fmt.Sprintf("✂ lines %d–%d of %d of this check · [/] scroll", off+1, off+len(vis)-1, len(d)))
	}
	out = append(out, vis...)
	if m.unseen != "" {
		out = append(out, th.Warn.Render(fmt.Sprintf("⚠ its end not seen yet (] scrolls) · %s again: mark %s anyway", m.unseen[:1], m.unseen)))
	}
	if rows := m.tailRows(); rows > 0 {
		vp := m.out // a copy: View changes nothing
		vp.Height = rows - 1
		out = append(out, strings.Split(vp.View(), "\n")...)
		out = append(out, th.Muted.Render("Mark it as you judge it: p passed · f failed · s skipped"))
	}
	return c.Pad(out, m.w, m.body)
}

// detailLines are the check under the cursor: its text, the sender's
// command whole, and its run — scrolled by [ and ] when taller than the
// rows the step has.
func (m *ChecksStep) detailLines() []string {
	th, p := m.s.theme(), m.s.Plan
	var out []string
	ch := p.Checks[m.list.Cur]
	out = append(out, th.Subtitle.Render("Check ")+th.Muted.Render(c.Line(ch.ID)+" · ")+m.checkIcon(m.s.Status(ch)))
	for _, ln := range c.Wrap(ch.Check, m.w-2) {
		out = append(out, " "+ln)
	}
	if ch.How != "" {
		out = append(out, strings.Split(c.SenderBox(th, ch.How, "suggested by "+c.Line(p.Origin.By()), m.w), "\n")...)
	} else {
		out = append(out, th.Muted.Render(" The sender suggested no command. Check it your own way, or press e to run one of yours."))
	}
	if m.running == ch.ID {
		out = append(out, m.spin.View()+" "+th.Text.Render("running in "+c.Line(m.s.Dir)+"…")+th.Muted.Render(" ctrl+c stops it"))
		if m.cancelled {
			out = append(out, th.Warn.Render("stopping…"))
		}
	} else if r, ok := m.results[ch.ID]; ok {
		who, mine := "the sender's command", r.Command != ch.How && r.Command != ""
		if mine {
			who = "your command"
		}
		st := th.Pass.Render("✓ " + r.Summary())
		if !r.OK() {
			st = th.Fail.Render("✗ " + r.Summary())
		}
		if r.Truncated {
			st += th.Muted.Render(" · output cut")
		}
		out = append(out, th.Muted.Render("Ran "+who+": ")+st)
		if mine {
			// What ran is shown, not only what was suggested (issue 10).
			out = append(out, m.commandRows(r.Command)...)
		}
	} else if ch.Run != nil {
		out = append(out, m.recordedRun(ch)...)
	}
	return out
}

// recordedRun is the run stored with a check of a stored passport (D12):
// the command when it was the person's edit, its exit status, who ran it
// and when.
func (m *ChecksStep) recordedRun(ch common.Check) []string {
	th, r := m.s.theme(), ch.Run
	var out []string
	who := "the sender's command"
	if r.Edited {
		who = "the person's edit"
	}
	st := th.Pass.Render(fmt.Sprintf("✓ exit %d", r.Exit))
	switch {
	case r.Exit < 0:
		st = th.Fail.Render("✗ stopped, or could not start")
	case r.Exit != 0:
		st = th.Fail.Render(fmt.Sprintf("✗ exit %d", r.Exit))
	}
	out = append(out, th.Muted.Render("Last run: "+who+" · ")+st)
	for _, ln := range c.Wrap("by "+orUnknown(r.By)+" at "+orUnknown(r.At), m.w-2) {
		out = append(out, th.Muted.Render("  "+ln))
	}
	if r.Edited {
		out = append(out, m.commandRows(r.Command)...)
	}
	return out
}

// commandRows show a command that ran and is not the sender's, line by
// line as the shell saw it (D11: each line sanitised; a row the width cut
// is marked as continuing, never passed off as a new line).
func (m *ChecksStep) commandRows(cmd string) []string {
	th := m.s.theme()
	var out []string
	for _, ln := range strings.Split(c.ShownCommand(cmd), "\n") {
		for i, seg := range c.CutRows(ln, max(m.w-6, 10)) {
			lead := "  $ "
			if i > 0 {
				lead = "    " + th.Muted.Render(c.ContMark)
			}
			out = append(out, lead+th.Data.Render(seg))
		}
	}
	return out
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
