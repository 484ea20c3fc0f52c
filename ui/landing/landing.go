package landing

import (
	"context"
	"errors"
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/ui/common"
	c "github.com/tp-dev/tp/ui/components"
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
	StepCount
)

// StepNames name the steps in the step bar.
var StepNames = [StepCount]string{"Summary", "Checks", "Facts", "Asks", "Passport", "Luggage", "Confirm"}

// Landing phases.
const (
	PhaseLoading = iota
	PhaseWalk
	PhaseLanding
	PhaseDone
	PhaseFailed
	PhaseCancelled
	// PhaseStaging unpacks the luggage before the checks step, so checks
	// run where the files are.
	PhaseStaging
)

// PlanMsg is sent by the landing screen when the core has built the plan.
type PlanMsg struct {
	Plan *common.Plan
	Err  error
}

// LandedMsg is sent by the landing screen when the pack has landed.
type LandedMsg struct {
	Landed *common.Landed
	Err    error
}

// ConformanceMsg is sent by the landing screen when the pack was judged.
type ConformanceMsg struct {
	Checks []common.Conformance
	Err    error
}

// NavKeys move between the steps.
type NavKeys struct {
	Next, Prev, Back key.Binding
	List             c.ListKeys // scroll the landed screen
	Cancel           key.Binding
	Finish           key.Binding
}

// DefaultNavKeys returns the walkthrough's own keys.
func DefaultNavKeys() NavKeys {
	return NavKeys{
		Next:   c.KB([]string{"tab", "right"}, "tab/→", "next step"),
		Prev:   c.KB([]string{"shift+tab", "left"}, "shift+tab/←", "previous step"),
		Back:   c.KB([]string{"esc"}, "esc", "back"),
		List:   c.DefaultListKeys(),
		Cancel: c.KB([]string{"ctrl+c"}, "ctrl+c", "cancel"),
		Finish: c.KB([]string{"enter", "esc"}, "enter/esc", "finish"),
	}
}

// Landing is the landing walkthrough (`tp land FILE`): it builds the plan,
// shows one step at a time over one Session, and lands the pack on the
// person's confirmation.
type Landing struct {
	c    *common.Common
	s    *Session
	keys NavKeys
	file string
	w, h int

	phase int
	step  int
	steps [StepCount]step
	err   error

	work      *common.Work
	prog      progress.Model
	spin      spinner.Model
	pPhase    string
	pDone     int64
	pTotal    int64
	cancelled bool

	landed  *common.Landed
	doneOff c.Pager
	// toStep is the step staging leads to; notice is said on the summary
	// when staging was cancelled.
	toStep int
	notice string
}

// New returns the walkthrough for file.
func New(cm *common.Common, file string) *Landing {
	sp := spinner.New(spinner.WithSpinner(spinner.Dot), spinner.WithStyle(cm.Theme.Key))
	pr := progress.New(progress.WithoutPercentage())
	if cm.Theme.ProgressFull != "" {
		pr = progress.New(progress.WithoutPercentage(), progress.WithSolidFill(cm.Theme.ProgressFull))
	} else {
		pr.Full, pr.Empty = '█', '░'
		pr.FullColor, pr.EmptyColor = "", ""
	}
	l := &Landing{c: cm, s: NewSession(cm, nil), keys: DefaultNavKeys(), file: file, prog: pr, spin: sp,
		doneOff: c.Pager{Keys: c.DefaultListKeys(), Hint: "↑/↓ pgup/pgdn scroll · enter or esc to finish"}}
	l.SetSize(cm.Width, cm.Height-common.Chrome)
	return l
}

// NewWithPlan starts the walkthrough on an already built plan (tests, and
// the home screen when it has one).
func NewWithPlan(cm *common.Common, plan *common.Plan) *Landing {
	l := New(cm, plan.File)
	l.setPlan(plan)
	return l
}

func (l *Landing) setPlan(p *common.Plan) {
	l.s.SetPlan(p)
	l.phase = PhaseWalk
	s := l.s
	l.steps = [StepCount]step{newSummary(s), NewChecksStep(s), newFacts(s), newAsks(s), newPassport(s), newLuggage(s), newConfirm(s)}
	l.SetSize(l.w, l.h)
}

// Title names the screen.
func (l *Landing) Title() string { return "land" }

// Plan is the plan being walked (nil while loading).
func (l *Landing) Plan() *common.Plan { return l.s.Plan }

// Session is the walkthrough's shared state.
func (l *Landing) Session() *Session { return l.s }

// Checks is the checks step (nil while loading).
func (l *Landing) Checks() *ChecksStep {
	if l.s.Plan == nil {
		return nil
	}
	return l.steps[StepChecks].(*ChecksStep)
}

// Phase is PhaseLoading…PhaseCancelled.
func (l *Landing) Phase() int { return l.phase }

// Step is the current step.
func (l *Landing) Step() int { return l.step }

// Decisions returns what the person chose so far.
func (l *Landing) Decisions() common.Decisions { return l.s.Decisions() }

// Result is the landed passport, once landed.
func (l *Landing) Result() *common.Landed { return l.landed }

// Err is the error that ended the walkthrough, if any.
func (l *Landing) Err() error { return l.err }

func (l *Landing) cur() step {
	if l.s.Plan == nil {
		return nil
	}
	return l.steps[l.step]
}

// Capturing is true while typing an answer or editing a command.
func (l *Landing) Capturing() bool { return l.cur() != nil && l.cur().Capturing() }

// Busy is true while the core or a command is working.
func (l *Landing) Busy() bool {
	return l.work != nil || (l.s.Plan != nil && l.steps[StepChecks].Busy())
}

// SetSize is called by the root.
func (l *Landing) SetSize(w, h int) {
	l.w, l.h = w, h
	l.prog.Width = min(w-4, 60)
	if l.s.Plan == nil {
		return
	}
	for _, st := range l.steps {
		st.SetSize(w, h, h-2)
	}
}

// Init starts building the plan, unless one was given.
func (l *Landing) Init() tea.Cmd {
	if l.s.Plan != nil {
		return nil
	}
	return l.startPlan()
}

func (l *Landing) startPlan() tea.Cmd {
	lander := l.c.Deps.Lander
	file := l.file
	l.phase = PhaseLoading
	w, cmd := common.StartWork(l.c.Ctx, func(ctx context.Context, p common.Progress) (any, error) {
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
	plan, d := l.s.Plan, l.s.Decisions()
	l.phase = PhaseLanding
	l.err = nil
	l.pDone, l.pTotal, l.pPhase = 0, 0, "landing"
	w, cmd := common.StartWork(l.c.Ctx, func(ctx context.Context, p common.Progress) (any, error) {
		return lander.Land(ctx, plan, d, p)
	})
	l.work = w
	return tea.Batch(cmd, l.spin.Tick)
}

// Update handles messages: the walkthrough's own work and keys, the rest
// to the steps (each ignores what is not its own).
func (l *Landing) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case spinner.TickMsg:
		if l.work != nil {
			var cmd tea.Cmd
			l.spin, cmd = l.spin.Update(msg)
			return l, cmd
		}
	case common.ProgressMsg:
		if l.work != nil && msg.Work == l.work.ID() {
			l.pPhase, l.pDone, l.pTotal = msg.Phase, msg.Done, msg.Total
			return l, l.work.Next()
		}
	case common.WorkDoneMsg:
		if l.work != nil && msg.Work == l.work.ID() {
			l.work = nil
			return l.workDone(msg)
		}
	case PlanMsg:
		return l.planArrived(msg.Plan, msg.Err)
	case LandedMsg:
		return l.landedArrived(msg.Landed, msg.Err)
	case ConformanceMsg:
		l.s.Judging = false
		if l.s.Plan != nil {
			l.s.Plan.Conformance, l.s.JudgeErr = msg.Checks, msg.Err
		}
		return l, nil
	case landMsg:
		return l, l.startLand()
	case common.CancelMsg:
		if l.work != nil {
			l.work.Cancel()
			l.cancelled = true
			return l, nil
		}
	case tea.KeyMsg:
		return l.key(msg)
	}
	if l.s.Plan == nil {
		return l, nil
	}
	if cur := l.cur(); cur.Modal() {
		// The editor's own messages (cursor, paste) go to the open step.
		return l, cur.Update(msg)
	}
	return l, l.steps[StepChecks].Update(msg)
}

func (l *Landing) workDone(msg common.WorkDoneMsg) (common.Component, tea.Cmd) {
	switch l.phase {
	case PhaseStaging:
		return l.stagedArrived(msg.Value, msg.Err)
	case PhaseLoading:
		p, _ := msg.Value.(*common.Plan)
		return l.planArrived(p, msg.Err)
	case PhaseLanding:
		r, _ := msg.Value.(*common.Landed)
		return l.landedArrived(r, msg.Err)
	}
	return l, nil
}

func (l *Landing) planArrived(p *common.Plan, err error) (common.Component, tea.Cmd) {
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
		return l, common.Replace(NewReceipt(l.c, p))
	}
	l.setPlan(p)
	return l, l.judgeCmd()
}

func (l *Landing) judgeCmd() tea.Cmd {
	j, ok := l.c.Deps.Lander.(common.Judger)
	if !ok || len(l.s.Plan.Conformance) > 0 {
		return nil
	}
	l.s.Judging = true
	ctx, file := l.c.Ctx, l.s.Plan.File
	return func() tea.Msg {
		cs, err := j.Judge(ctx, file)
		return ConformanceMsg{Checks: cs, Err: err}
	}
}

func (l *Landing) landedArrived(r *common.Landed, err error) (common.Component, tea.Cmd) {
	cf := l.steps[StepConfirm].(*confirm)
	if err != nil || r == nil {
		if err == nil {
			err = errors.New("the core returned no result")
		}
		if errors.Is(err, context.Canceled) || l.cancelled {
			// The core wrote nothing: back to the confirm step.
			err = errors.New("cancelled: nothing was written")
			l.cancelled = false
		}
		l.err, cf.err = err, err
		l.phase = PhaseWalk
		return l, nil
	}
	l.landed = r
	l.phase = PhaseDone
	l.err, cf.err = nil, nil
	return l, nil
}

func (l *Landing) key(msg tea.KeyMsg) (common.Component, tea.Cmd) {
	k := l.keys
	switch l.phase {
	case PhaseLoading, PhaseLanding, PhaseStaging:
		return l, nil // ctrl+c cancels (root); everything else waits
	case PhaseFailed, PhaseCancelled, PhaseDone:
		if key.Matches(msg, k.Back) || key.Matches(msg, l.steps[StepConfirm].(*confirm).keys.Land) {
			return l, common.Pop
		}
		if l.phase == PhaseDone {
			l.doneOff.Update(msg, len(l.doneLines())-1, l.h)
		}
		return l, nil
	}
	cur := l.cur()
	if cur.Busy() || cur.Modal() {
		return l, cur.Update(msg)
	}
	switch {
	case key.Matches(msg, k.Back):
		if l.step == StepSummary {
			l.unstage()
			return l, common.Pop
		}
		l.goStep(l.step - 1)
		return l, nil
	case key.Matches(msg, k.Next):
		if l.step == StepSummary {
			if cmd := l.startStaging(l.step + 1); cmd != nil {
				return l, cmd
			}
		}
		l.goStep(l.step + 1)
		return l, nil
	case key.Matches(msg, k.Prev):
		l.goStep(l.step - 1)
		return l, nil
	}
	return l, cur.Update(msg)
}

// stager is the core's staging, when it has one and the pack is a handoff.
func (l *Landing) stager() common.Stager {
	st, ok := l.c.Deps.Lander.(common.Stager)
	if !ok || l.s.Plan == nil || l.s.Plan.Kind == "receipt" {
		return nil
	}
	return st
}

// startStaging unpacks the luggage before step to (the checks), unless it
// was already; it returns nil when there is nothing to do.
func (l *Landing) startStaging(to int) tea.Cmd {
	st := l.stager()
	if st == nil || l.s.Staged {
		return nil
	}
	plan := l.s.Plan
	l.phase, l.toStep, l.notice = PhaseStaging, to, ""
	l.pDone, l.pTotal, l.pPhase = 0, 0, "unpacking"
	w, cmd := common.StartWork(l.c.Ctx, func(ctx context.Context, p common.Progress) (any, error) {
		return st.Stage(ctx, plan, p)
	})
	l.work = w
	return tea.Batch(cmd, l.spin.Tick)
}

func (l *Landing) stagedArrived(v any, err error) (common.Component, tea.Cmd) {
	dir, _ := v.(string)
	if err != nil || dir == "" {
		if err == nil {
			err = errors.New("the core returned no staging folder")
		}
		if errors.Is(err, context.Canceled) || l.cancelled {
			// Back to the summary: nothing was unpacked.
			l.cancelled = false
			l.phase = PhaseWalk
			l.notice = "Cancelled: nothing was unpacked. tab unpacks the luggage again."
			return l, nil
		}
		l.err = fmt.Errorf("unpacking the luggage: %w", err)
		l.phase = PhaseFailed
		return l, nil
	}
	l.s.Dir, l.s.Staged = dir, true
	l.phase = PhaseWalk
	l.goStep(l.toStep)
	return l, nil
}

// unstage removes the staged luggage when the person leaves without
// landing.
func (l *Landing) unstage() {
	if st := l.stager(); st != nil && l.s.Staged && l.landed == nil {
		st.Unstage(l.s.Plan)
		l.s.Staged, l.s.Dir = false, l.c.WorkDir
	}
}

// GoStep shows step s.
func (l *Landing) GoStep(s int) { l.goStep(s) }

func (l *Landing) goStep(s int) {
	if s < 0 || s >= StepCount || l.s.Plan == nil {
		return
	}
	l.step = s
	if e, ok := l.steps[s].(interface{ enter() }); ok {
		e.enter()
	}
}

// ShortHelp lists the keys for the current step.
func (l *Landing) ShortHelp() []key.Binding {
	k := l.keys
	switch {
	case l.phase == PhaseLoading || l.phase == PhaseLanding || l.phase == PhaseStaging || l.work != nil:
		return []key.Binding{k.Cancel}
	case l.phase == PhaseDone:
		return []key.Binding{k.Finish}
	case l.phase != PhaseWalk:
		return []key.Binding{k.Back}
	}
	cur := l.cur()
	if cur.Modal() || cur.Busy() {
		return cur.ShortHelp()
	}
	nav := []key.Binding{k.Next, k.Back}
	if l.step == StepConfirm {
		nav = []key.Binding{k.Back}
	}
	return append(cur.ShortHelp(), nav...)
}

// FullHelp lists every key of the walkthrough.
func (l *Landing) FullHelp() [][]key.Binding {
	if l.s.Plan == nil {
		return nil
	}
	k := l.keys
	switch {
	case l.phase == PhaseLoading || l.phase == PhaseLanding || l.phase == PhaseStaging || l.work != nil:
		return [][]key.Binding{{k.Cancel}}
	case l.phase == PhaseDone:
		return [][]key.Binding{{k.Finish}, k.List.Bindings()}
	case l.phase != PhaseWalk:
		return [][]key.Binding{{k.Back}}
	}
	cur := l.cur()
	if cur.Modal() || cur.Busy() {
		return cur.FullHelp()
	}
	nav := []key.Binding{k.Next, k.Prev, k.Back}
	if l.step == StepConfirm {
		nav = []key.Binding{k.Prev, k.Back}
	}
	return append(cur.FullHelp(), nav)
}

func (l *Landing) String() string { return fmt.Sprintf("landing(%s, step %d)", l.file, l.step) }
