package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/internal/howrun"
)

// Landing steps, in the order the walkthrough shows them. Required landing
// checks come straight after the summary, before anything else (§4.4).
const (
	StepSummary = iota
	StepChecks
	StepFacts
	StepAsks
	StepPassport
	StepLuggage
	StepConfirm
	stepCount
)

var stepNames = [stepCount]string{"Summary", "Checks", "Facts", "Asks", "Passport", "Luggage", "Confirm"}

// Landing phases.
const (
	PhaseLoading = iota
	PhaseWalk
	PhaseLanding
	PhaseDone
	PhaseFailed
	PhaseCancelled
)

// PlanMsg is sent by the landing screen when the core has built the plan.
type PlanMsg struct {
	Plan *Plan
	Err  error
}

// LandedMsg is sent by the landing screen when the pack has landed.
type LandedMsg struct {
	Landed *Landed
	Err    error
}

// ConformanceMsg is sent by the landing screen when the pack was judged.
type ConformanceMsg struct {
	Checks []Conformance
	Err    error
}

// HowDoneMsg is sent by the landing screen when a confirmed command ended.
type HowDoneMsg struct {
	CheckID string
	Result  howrun.Result
	Err     error
}

// LandingKeys are the walkthrough's keys.
type LandingKeys struct {
	List                        ListKeys
	Next, Prev                  key.Binding
	Run, Edit, Pass, Fail, Skip key.Binding
	Answer, Leave, Trust        key.Binding
	OutUp, OutDown              key.Binding
	Land, LandAgain, Back       key.Binding
	Dialog                      DialogKeys
	Edit2                       EditKeys
	// Review ends editing a command; enter is a new line in it, since a
	// command may span lines (D12: the person edits the real text).
	Review, Newline key.Binding
}

// DefaultLandingKeys returns the walkthrough's keys.
func DefaultLandingKeys() LandingKeys {
	return LandingKeys{
		List:      DefaultListKeys(),
		Next:      kb([]string{"tab", "right"}, "tab/→", "next step"),
		Prev:      kb([]string{"shift+tab", "left"}, "shift+tab/←", "previous step"),
		Run:       kb([]string{"r"}, "r", "run the suggested command…"),
		Edit:      kb([]string{"e"}, "e", "edit the command, then run…"),
		Pass:      kb([]string{"p"}, "p", "mark passed"),
		Fail:      kb([]string{"f"}, "f", "mark failed"),
		Skip:      kb([]string{"s"}, "s", "mark skipped"),
		Answer:    kb([]string{"enter", "a"}, "enter", "answer now"),
		Leave:     kb([]string{"o"}, "o", "leave open"),
		Trust:     kb([]string{"t"}, "t", "restore ✓ on facts proven here…"),
		OutUp:     kb([]string{"shift+up", "K"}, "K", "scroll output up"),
		OutDown:   kb([]string{"shift+down", "J"}, "J", "scroll output down"),
		Land:      kb([]string{"enter"}, "enter", "land it"),
		LandAgain: kb([]string{"A"}, "A", "land it again"),
		Back:      kb([]string{"esc"}, "esc", "back"),
		Dialog:    DefaultDialogKeys(),
		Edit2:     DefaultEditKeys(),
		Review:    kb([]string{"ctrl+s"}, "ctrl+s", "review the command"),
		Newline:   kb([]string{"enter"}, "enter", "new line"),
	}
}

// howDialog is the confirmation before a command runs (D12).
type howDialog struct {
	open     bool
	check    int
	command  string
	edited   bool // the person changed it: it is theirs now
	editing  bool
	input    textarea.Model // the command's real text, newlines included
	trusting bool           // the §4.2 restore dialog instead
	off      int            // scroll offset of a dialog taller than the screen
}

// Landing is the landing walkthrough (`tp land FILE`).
type Landing struct {
	c    *Common
	keys LandingKeys
	file string
	w, h int

	phase int
	step  int
	plan  *Plan
	err   error

	work      *work
	prog      progress.Model
	spin      spinner.Model
	pPhase    string
	pDone     int64
	pTotal    int64
	started   time.Time
	cancelled bool

	// decisions
	checks  map[string]CheckDecision
	answers map[string]string
	trust   bool
	again   bool

	// per-step state
	sumOff             int
	doneOff            int // scroll offset of the landed screen's next steps
	checkCur, checkOff int
	factCur, factOff   int
	askCur, askOff     int
	lugOff             int
	dialog             howDialog
	running            string // check id whose command is running
	results            map[string]howrun.Result
	out                viewport.Model
	answering          bool
	ta                 textarea.Model
	pass               viewport.Model
	passWidth          int

	landed *Landed

	judging  bool
	judgeErr error

	// checksOnly shows only the checks step (tp checks ID).
	checksOnly bool
}

// NewLanding returns the walkthrough for file.
func NewLanding(c *Common, file string) *Landing {
	sp := spinner.New(spinner.WithSpinner(spinner.Dot), spinner.WithStyle(c.Theme.Key))
	pr := progress.New(progress.WithoutPercentage())
	if c.Theme.ProgressFull != "" {
		pr = progress.New(progress.WithoutPercentage(), progress.WithSolidFill(c.Theme.ProgressFull))
	} else {
		pr.Full, pr.Empty = '█', '░'
		pr.FullColor, pr.EmptyColor = "", ""
	}
	ed := newTextArea(c.Theme)
	ed.Prompt = "┃ "
	ed.Placeholder = "the command to run…"
	ed.MaxHeight = 0 // a command has as many lines as it needs
	ta := newTextArea(c.Theme)
	ta.Placeholder = "the answer, as you would give it…"
	l := &Landing{
		c: c, keys: DefaultLandingKeys(), file: file,
		prog: pr, spin: sp, ta: ta,
		checks: map[string]CheckDecision{}, answers: map[string]string{},
		results: map[string]howrun.Result{},
		out:     viewport.New(80, 5),
		pass:    viewport.New(80, 10),
	}
	l.dialog.input = ed
	l.SetSize(c.Width, c.Height-chrome)
	return l
}

// NewLandingWithPlan starts the walkthrough on an already built plan (tests,
// and the home screen when it has one).
func NewLandingWithPlan(c *Common, plan *Plan) *Landing {
	l := NewLanding(c, plan.File)
	l.setPlan(plan)
	return l
}

func (l *Landing) setPlan(p *Plan) {
	l.plan = p
	l.phase = PhaseWalk
	for _, ch := range p.Checks {
		if ch.Status != "" && ch.Status != "pending" {
			l.checks[ch.ID] = CheckDecision{Status: ch.Status}
		}
	}
}

// Title names the screen.
func (l *Landing) Title() string { return "land" }

// Plan is the plan being walked (nil while loading).
func (l *Landing) Plan() *Plan { return l.plan }

// Phase is PhaseLoading…PhaseCancelled.
func (l *Landing) Phase() int { return l.phase }

// Step is the current step.
func (l *Landing) Step() int { return l.step }

// Decisions returns what the person chose so far.
func (l *Landing) Decisions() Decisions {
	d := Decisions{Checks: map[string]CheckDecision{}, Answers: map[string]string{}, TrustOwnFacts: l.trust, Again: l.again}
	for k, v := range l.checks {
		d.Checks[k] = v
	}
	for k, v := range l.answers {
		d.Answers[k] = v
	}
	return d
}

// Result is the landed passport, once landed.
func (l *Landing) Result() *Landed { return l.landed }

// Err is the error that ended the walkthrough, if any.
func (l *Landing) Err() error { return l.err }

// Capturing is true while typing an answer or editing a command.
func (l *Landing) Capturing() bool { return l.answering || (l.dialog.open && l.dialog.editing) }

// Busy is true while the core or a command is working.
func (l *Landing) Busy() bool { return l.work != nil }

// SetSize is called by the root.
func (l *Landing) SetSize(w, h int) {
	l.w, l.h = w, h
	l.prog.Width = min(w-4, 60)
	l.ta.SetWidth(max(w-4, 10))
	l.ta.SetHeight(max(min(h-12, 6), 2))
	l.dialog.input.SetWidth(max(w-8, 10))
	l.fitEditor()
	l.out.Width = max(w-2, 10)
	l.pass.Width = w
	l.pass.Height = max(h-2, 1)
	if l.passWidth != w && l.step == StepPassport {
		l.renderPassport()
	}
}

// Init starts building the plan, unless one was given.
func (l *Landing) Init() tea.Cmd {
	if l.plan != nil {
		return nil
	}
	return l.startPlan()
}

func (l *Landing) startPlan() tea.Cmd {
	lander := l.c.Deps.Lander
	file := l.file
	l.phase = PhaseLoading
	l.started = time.Now()
	w, cmd := startWork(l.c.Ctx, func(ctx context.Context, p Progress) (any, error) {
		if lander == nil {
			return nil, errors.New("landing is not available in this build")
		}
		return lander.Plan(ctx, file, p)
	})
	l.work = w
	return tea.Batch(cmd, l.spin.Tick)
}

func (l *Landing) startLand() tea.Cmd {
	lander := l.c.Deps.Lander
	plan, d := l.plan, l.Decisions()
	l.phase = PhaseLanding
	l.pDone, l.pTotal, l.pPhase = 0, 0, "landing"
	w, cmd := startWork(l.c.Ctx, func(ctx context.Context, p Progress) (any, error) {
		return lander.Land(ctx, plan, d, p)
	})
	l.work = w
	return tea.Batch(cmd, l.spin.Tick)
}

func (l *Landing) startHow(checkID, command string, fromSender bool) tea.Cmd {
	run := l.c.Deps.RunHow
	if run == nil {
		run = howrun.Run
	}
	conf := howrun.Confirmed{Command: command, Dir: l.c.WorkDir, FromSender: fromSender}
	opts := howrun.Options{Timeout: l.howTimeout()}
	l.running = checkID
	w, cmd := startWork(l.c.Ctx, func(ctx context.Context, _ Progress) (any, error) {
		r, err := run(ctx, conf, opts)
		return HowDoneMsg{CheckID: checkID, Result: r, Err: err}, nil
	})
	l.work = w
	return tea.Batch(cmd, l.spin.Tick)
}

func (l *Landing) howTimeout() time.Duration {
	if l.c.Deps.HowTimeout > 0 {
		return l.c.Deps.HowTimeout
	}
	return howrun.DefaultTimeout
}

// Update handles messages.
func (l *Landing) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case spinner.TickMsg:
		if l.work == nil {
			return l, nil
		}
		var cmd tea.Cmd
		l.spin, cmd = l.spin.Update(msg)
		return l, cmd
	case ProgressMsg:
		if l.work == nil || msg.Work != l.work.id {
			return l, nil
		}
		l.pPhase, l.pDone, l.pTotal = msg.Phase, msg.Done, msg.Total
		return l, l.work.next()
	case WorkDoneMsg:
		if l.work == nil || msg.Work != l.work.id {
			return l, nil
		}
		l.work = nil
		return l.workDone(msg)
	case PlanMsg:
		return l.planArrived(msg.Plan, msg.Err)
	case LandedMsg:
		return l.landedArrived(msg.Landed, msg.Err)
	case HowDoneMsg:
		return l.howArrived(msg)
	case ConformanceMsg:
		l.judging = false
		if l.plan != nil {
			l.plan.Conformance, l.judgeErr = msg.Checks, msg.Err
		}
		return l, nil
	case CancelMsg:
		if l.work != nil {
			l.work.cancel()
			l.cancelled = true
		}
		return l, nil
	case tea.KeyMsg:
		return l.key(msg)
	}
	if l.answering {
		var cmd tea.Cmd
		l.ta, cmd = l.ta.Update(msg)
		return l, cmd
	}
	if l.dialog.editing {
		var cmd tea.Cmd
		l.dialog.input, cmd = l.dialog.input.Update(msg)
		l.fitEditor()
		return l, cmd
	}
	return l, nil
}

// fitEditor sizes the command editor to its lines, within the screen.
func (l *Landing) fitEditor() {
	l.dialog.input.SetHeight(max(min(l.dialog.input.LineCount()+1, l.h-8), 2))
}

// startEditing opens the editor on cmd as the person sees it: every line
// sanitised on its own (D11), its newlines kept, so what they edit and then
// confirm is the text they read, and is exactly what runs (D12).
func (l *Landing) startEditing(cmd string) tea.Cmd {
	d := &l.dialog
	d.editing, d.edited = true, true
	d.input.SetValue(shownCommand(cmd))
	l.fitEditor()
	return d.input.Focus()
}

func (l *Landing) workDone(msg WorkDoneMsg) (Component, tea.Cmd) {
	switch l.phase {
	case PhaseLoading:
		p, _ := msg.Value.(*Plan)
		return l.planArrived(p, msg.Err)
	case PhaseLanding:
		r, _ := msg.Value.(*Landed)
		return l.landedArrived(r, msg.Err)
	}
	if h, ok := msg.Value.(HowDoneMsg); ok {
		return l.howArrived(h)
	}
	return l, nil
}

func (l *Landing) planArrived(p *Plan, err error) (Component, tea.Cmd) {
	if err != nil || p == nil {
		if err == nil {
			err = errors.New("no plan")
		}
		l.err = err
		l.phase = PhaseFailed
		if errors.Is(err, context.Canceled) || l.cancelled {
			l.phase = PhaseCancelled
		}
		return l, nil
	}
	if p.Kind == "receipt" || p.Receipt != nil { // a merge, or one refused (a handoff with --into)
		return l, replace(NewReceipt(l.c, p))
	}
	l.setPlan(p)
	return l, l.judgeCmd()
}

func (l *Landing) judgeCmd() tea.Cmd {
	j, ok := l.c.Deps.Lander.(Judger)
	if !ok || len(l.plan.Conformance) > 0 {
		return nil
	}
	l.judging = true
	ctx, file := l.c.Ctx, l.plan.File
	return func() tea.Msg {
		cs, err := j.Judge(ctx, file)
		return ConformanceMsg{Checks: cs, Err: err}
	}
}

func (l *Landing) landedArrived(r *Landed, err error) (Component, tea.Cmd) {
	if err != nil || r == nil {
		if err == nil {
			err = errors.New("the core returned no result")
		}
		l.err = err
		if errors.Is(err, context.Canceled) || l.cancelled {
			// The core wrote nothing: back to the confirm step.
			l.phase = PhaseWalk
			l.err = errors.New("cancelled: nothing was written")
			l.cancelled = false
			return l, nil
		}
		l.phase = PhaseWalk
		return l, nil
	}
	l.landed = r
	l.phase = PhaseDone
	l.err = nil
	return l, nil
}

func (l *Landing) howArrived(h HowDoneMsg) (Component, tea.Cmd) {
	l.running = ""
	l.cancelled = false
	if h.Err != nil {
		l.results[h.CheckID] = howrun.Result{Command: "", ExitCode: -1, Output: []byte(h.Err.Error())}
	} else {
		l.results[h.CheckID] = h.Result
	}
	r := l.results[h.CheckID]
	l.out.SetContent(text(string(r.Output)))
	l.out.GotoBottom()
	d := l.checks[h.CheckID]
	d.Ran, d.Command, d.Exit = h.Err == nil, r.Command, r.ExitCode
	l.checks[h.CheckID] = d
	return l, nil
}

func (l *Landing) key(msg tea.KeyMsg) (Component, tea.Cmd) {
	k := l.keys
	switch l.phase {
	case PhaseLoading, PhaseLanding:
		return l, nil // ctrl+c cancels (root); everything else waits
	case PhaseFailed, PhaseCancelled, PhaseDone:
		if key.Matches(msg, k.Back) || key.Matches(msg, k.Land) {
			return l, pop
		}
		if l.phase == PhaseDone {
			l.doneOff = l.scroll(msg, l.doneOff)
		}
		return l, nil
	}
	if l.work != nil { // a command is running
		return l, nil
	}
	if l.dialog.open {
		return l.dialogKey(msg)
	}
	if l.answering {
		return l.answerKey(msg)
	}
	if l.checksOnly {
		if key.Matches(msg, k.Back) {
			return l, pop
		}
		return l.checksKey(msg)
	}
	switch {
	case key.Matches(msg, k.Back):
		if l.step == StepSummary {
			return l, pop
		}
		l.goStep(l.step - 1)
		return l, nil
	case key.Matches(msg, k.Next):
		l.goStep(l.step + 1)
		return l, nil
	case key.Matches(msg, k.Prev):
		l.goStep(l.step - 1)
		return l, nil
	}
	switch l.step {
	case StepSummary:
		l.sumOff = l.scroll(msg, l.sumOff)
	case StepChecks:
		return l.checksKey(msg)
	case StepFacts:
		return l.factsKey(msg)
	case StepAsks:
		return l.asksKey(msg)
	case StepPassport:
		var cmd tea.Cmd
		l.pass, cmd = l.pass.Update(msg)
		return l, cmd
	case StepLuggage:
		l.lugOff = l.scroll(msg, l.lugOff)
	case StepConfirm:
		if key.Matches(msg, k.Land) && (l.plan.AlreadyLanded == "" || l.again) {
			l.err = nil
			return l, l.startLand()
		}
		if key.Matches(msg, k.LandAgain) && l.plan.AlreadyLanded != "" {
			l.again = true
			l.err = nil
			return l, l.startLand()
		}
	}
	return l, nil
}

func (l *Landing) scroll(msg tea.KeyMsg, off int) int {
	n, _ := l.keys.List.move(msg, off, 1<<30, l.h-2)
	return n
}

func (l *Landing) goStep(s int) {
	if s < 0 || s >= stepCount {
		return
	}
	l.step = s
	if s == StepPassport && l.passWidth != l.w {
		l.renderPassport()
	}
}

// ---- checks ---------------------------------------------------------------

func (l *Landing) checksKey(msg tea.KeyMsg) (Component, tea.Cmd) {
	k := l.keys
	n := len(l.plan.Checks)
	if n == 0 {
		return l, nil
	}
	if c, ok := k.List.move(msg, l.checkCur, n, l.checkListHeight()); ok {
		l.checkCur = c
		l.out.SetContent(text(string(l.results[l.plan.Checks[c].ID].Output)))
		return l, nil
	}
	ch := l.plan.Checks[l.checkCur]
	mark := func(status string) (Component, tea.Cmd) {
		d := l.checks[ch.ID]
		d.Status = status
		l.checks[ch.ID] = d
		if l.checkCur < n-1 {
			l.checkCur++
		}
		return l, nil
	}
	switch {
	case key.Matches(msg, k.Run):
		if ch.How == "" {
			return l.openEdit(ch, "")
		}
		l.dialog = howDialog{open: true, check: l.checkCur, command: ch.How, input: l.dialog.input}
	case key.Matches(msg, k.Edit):
		return l.openEdit(ch, ch.How)
	case key.Matches(msg, k.Pass):
		return mark("passed")
	case key.Matches(msg, k.Fail):
		return mark("failed")
	case key.Matches(msg, k.Skip):
		return mark("skipped")
	case key.Matches(msg, k.OutUp):
		l.out.ScrollUp(1)
	case key.Matches(msg, k.OutDown):
		l.out.ScrollDown(1)
	}
	return l, nil
}

func (l *Landing) openEdit(ch Check, start string) (Component, tea.Cmd) {
	l.dialog = howDialog{open: true, check: l.checkCur, command: start, input: l.dialog.input}
	return l, l.startEditing(start)
}

func (l *Landing) dialogKey(msg tea.KeyMsg) (Component, tea.Cmd) {
	k := l.keys
	d := &l.dialog
	if d.trusting {
		switch {
		case key.Matches(msg, k.Dialog.Yes):
			l.trust = true
			*d = howDialog{input: d.input}
		case key.Matches(msg, k.Dialog.No):
			*d = howDialog{input: d.input}
		}
		return l, nil
	}
	if d.editing {
		switch {
		case key.Matches(msg, k.Review):
			d.command = d.input.Value()
			d.editing = false
			d.input.Blur()
			if strings.TrimSpace(d.command) == "" {
				*d = howDialog{input: d.input}
			}
			return l, nil
		case msg.String() == "esc":
			*d = howDialog{input: d.input}
			d.input.Blur()
			return l, nil
		}
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(msg)
		l.fitEditor()
		return l, cmd
	}
	if off, ok := k.List.move(msg, d.off, 1<<30, max(l.h-4, 1)); ok {
		d.off = off
		return l, nil
	}
	switch {
	case key.Matches(msg, k.Dialog.Yes):
		ch := l.plan.Checks[d.check]
		command, fromSender := d.command, !d.edited
		*d = howDialog{input: d.input}
		return l, l.startHow(ch.ID, command, fromSender)
	case key.Matches(msg, k.Dialog.Edit):
		return l, l.startEditing(d.command)
	case key.Matches(msg, k.Dialog.No):
		*d = howDialog{input: d.input}
	}
	return l, nil
}

// ---- facts ----------------------------------------------------------------

func (l *Landing) factsKey(msg tea.KeyMsg) (Component, tea.Cmd) {
	n := len(l.plan.Facts)
	if c, ok := l.keys.List.move(msg, l.factCur, n, l.h-8); ok {
		l.factCur = c
		return l, nil
	}
	if key.Matches(msg, l.keys.Trust) && l.restorable() > 0 {
		if l.trust {
			l.trust = false
			return l, nil
		}
		l.dialog = howDialog{open: true, trusting: true, input: l.dialog.input}
	}
	return l, nil
}

func (l *Landing) restorable() int {
	n := 0
	for _, f := range l.plan.Facts {
		if f.Restorable {
			n++
		}
	}
	return n
}

// ---- asks -----------------------------------------------------------------

func (l *Landing) asksKey(msg tea.KeyMsg) (Component, tea.Cmd) {
	n := len(l.plan.Asks)
	if n == 0 {
		return l, nil
	}
	if c, ok := l.keys.List.move(msg, l.askCur, n, l.h-10); ok {
		l.askCur = c
		return l, nil
	}
	a := l.plan.Asks[l.askCur]
	switch {
	case key.Matches(msg, l.keys.Answer):
		l.answering = true
		l.ta.SetValue(l.answers[a.ID])
		return l, l.ta.Focus()
	case key.Matches(msg, l.keys.Leave):
		delete(l.answers, a.ID)
	}
	return l, nil
}

func (l *Landing) answerKey(msg tea.KeyMsg) (Component, tea.Cmd) {
	a := l.plan.Asks[l.askCur]
	switch {
	case key.Matches(msg, l.keys.Edit2.Save):
		if v := l.ta.Value(); v != "" {
			l.answers[a.ID] = v
		} else {
			delete(l.answers, a.ID)
		}
		l.answering = false
		l.ta.Blur()
		return l, nil
	case key.Matches(msg, l.keys.Edit2.Cancel):
		l.answering = false
		l.ta.Blur()
		return l, nil
	}
	var cmd tea.Cmd
	l.ta, cmd = l.ta.Update(msg)
	return l, cmd
}

// ---- help -----------------------------------------------------------------

// ShortHelp lists the keys for the current step.
func (l *Landing) ShortHelp() []key.Binding {
	k := l.keys
	switch {
	case l.phase == PhaseLoading || l.phase == PhaseLanding || l.work != nil:
		return []key.Binding{kb([]string{"ctrl+c"}, "ctrl+c", "cancel")}
	case l.phase != PhaseWalk:
		return []key.Binding{k.Back}
	case l.dialog.open && l.dialog.editing:
		return []key.Binding{k.Review, k.Newline, kb([]string{"esc"}, "esc", "cancel")}
	case l.dialog.open && l.dialog.trusting:
		return []key.Binding{kb([]string{"y"}, "y", "restore ✓"), k.Dialog.No}
	case l.dialog.open:
		return []key.Binding{kb([]string{"y"}, "y", "run it"), k.Dialog.Edit, k.Dialog.No}
	case l.answering:
		return []key.Binding{k.Edit2.Save, k.Edit2.Cancel}
	}
	nav := []key.Binding{k.Next, k.Back}
	if l.checksOnly {
		nav = nil
	}
	switch l.step {
	case StepChecks:
		return append([]key.Binding{k.Run, k.Pass, k.Fail, k.Skip}, nav...)
	case StepFacts:
		if l.restorable() > 0 {
			return append([]key.Binding{k.Trust}, nav...)
		}
	case StepAsks:
		return append([]key.Binding{k.Answer, k.Leave}, nav...)
	case StepConfirm:
		if l.plan.AlreadyLanded != "" {
			return []key.Binding{k.LandAgain, k.Back}
		}
		return []key.Binding{k.Land, k.Back}
	}
	return nav
}

// FullHelp lists every key of the walkthrough.
func (l *Landing) FullHelp() [][]key.Binding {
	k := l.keys
	return [][]key.Binding{
		{k.Next, k.Prev, k.List.Up, k.List.Down, k.List.PageUp, k.List.PageDown},
		{k.Run, k.Edit, k.Review, k.Pass, k.Fail, k.Skip, k.OutUp, k.OutDown},
		{k.Trust, k.Answer, k.Edit2.Save, k.Leave, k.Land},
	}
}

func (l *Landing) String() string { return fmt.Sprintf("landing(%s, step %d)", l.file, l.step) }
