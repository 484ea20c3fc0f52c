package landing

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tp-dev/tp/ui/common"
	c "github.com/tp-dev/tp/ui/components"
)

// MergedMsg is sent by the receipt screen when the merge is done.
type MergedMsg struct {
	Merged *common.Merged
	Err    error
}

// ReceiptKeys are the receipt screen's keys.
type ReceiptKeys struct {
	List          c.ListKeys
	Merge, Cancel key.Binding
	// Finish and Leave name what enter and esc do once merged or refused;
	// Stop is ctrl+c while merging.
	Finish, Leave, Stop key.Binding
}

// DefaultReceiptKeys returns the receipt screen's keys.
func DefaultReceiptKeys() ReceiptKeys {
	return ReceiptKeys{
		List:   c.DefaultListKeys(),
		Merge:  c.KB([]string{"enter", "y"}, "enter/y", "merge into the target"),
		Cancel: c.KB([]string{"esc", "n"}, "esc/n", "cancel"),
		Finish: c.KB([]string{"enter", "esc"}, "enter/esc", "finish"),
		Leave:  c.KB([]string{"esc"}, "esc", "leave (nothing was written)"),
		Stop:   c.KB([]string{"ctrl+c"}, "ctrl+c", "cancel"),
	}
}

// Receipt previews and merges a receipt (`tp land RECEIPT`, §4.4.1).
type Receipt struct {
	c      *common.Common
	keys   ReceiptKeys
	plan   *common.Plan
	w, h   int
	off    int
	work   *common.Work
	spin   spinner.Model
	merged *common.Merged
	err    error
}

// NewReceipt returns the receipt screen for a plan of kind receipt.
func NewReceipt(cm *common.Common, plan *common.Plan) *Receipt {
	r := &Receipt{c: cm, keys: DefaultReceiptKeys(), plan: plan,
		spin: spinner.New(spinner.WithSpinner(spinner.Dot), spinner.WithStyle(cm.Theme.Key))}
	r.SetSize(cm.Width, cm.Height-common.Chrome)
	return r
}

func (r *Receipt) Init() tea.Cmd          { return nil }
func (r *Receipt) Title() string          { return "receipt" }
func (r *Receipt) Capturing() bool        { return false }
func (r *Receipt) Busy() bool             { return r.work != nil }
func (r *Receipt) SetSize(w, h int)       { r.w, r.h = w, h }
func (r *Receipt) Result() *common.Merged { return r.merged }
func (r *Receipt) Err() error             { return r.err }
func (r *Receipt) refused() bool          { return r.plan.Receipt == nil || r.plan.Receipt.Refusal != nil }

// Refusal is the rule that refused the merge, or nil.
func (r *Receipt) Refusal() *common.Refusal {
	if r.plan.Receipt == nil {
		return nil
	}
	return r.plan.Receipt.Refusal
}
func (r *Receipt) ShortHelp() []key.Binding {
	switch {
	case r.work != nil:
		return []key.Binding{r.keys.Stop}
	case r.merged != nil:
		return r.scrollHelp(r.keys.Finish)
	case r.refused():
		return []key.Binding{r.keys.Leave}
	}
	return r.scrollHelp(r.keys.Merge, r.keys.Cancel)
}

// scrollHelp adds ↓ to keys when the preview is taller than the screen:
// the footer offers scrolling only where there is something to scroll to.
func (r *Receipt) scrollHelp(keys ...key.Binding) []key.Binding {
	if len(r.lines()) > r.h {
		keys = append(keys, r.keys.List.Down)
	}
	return keys
}
func (r *Receipt) FullHelp() [][]key.Binding {
	return [][]key.Binding{{r.keys.Merge, r.keys.Cancel}, {r.keys.List.Up, r.keys.List.Down, r.keys.List.PageDown}}
}

// Update handles keys and the merge result.
func (r *Receipt) Update(msg tea.Msg) (common.Component, tea.Cmd) {
	switch msg := msg.(type) {
	case spinner.TickMsg:
		if r.work == nil {
			return r, nil
		}
		var cmd tea.Cmd
		r.spin, cmd = r.spin.Update(msg)
		return r, cmd
	case common.ProgressMsg:
		if r.work != nil && msg.Work == r.work.ID() {
			return r, r.work.Next()
		}
	case common.WorkDoneMsg:
		if r.work == nil || msg.Work != r.work.ID() {
			return r, nil
		}
		r.work = nil
		m, _ := msg.Value.(*common.Merged)
		return r.Update(MergedMsg{Merged: m, Err: msg.Err})
	case MergedMsg:
		if msg.Err != nil || msg.Merged == nil {
			r.err = msg.Err
			if r.err == nil {
				r.err = errors.New("the core returned no result")
			}
			if errors.Is(r.err, context.Canceled) {
				r.err = errors.New("cancelled: nothing was written")
			}
			return r, nil
		}
		r.merged, r.err = msg.Merged, nil
	case common.CancelMsg:
		if r.work != nil {
			r.work.Cancel()
		}
	case tea.KeyMsg:
		if r.work != nil {
			return r, nil
		}
		switch {
		case key.Matches(msg, r.keys.Cancel):
			return r, common.Pop
		case key.Matches(msg, r.keys.Merge):
			if r.merged != nil {
				return r, common.Pop
			}
			if r.refused() {
				return r, nil
			}
			lander, plan := r.c.Deps.Lander, r.plan
			w, cmd := common.StartWork(r.c.Ctx, func(ctx context.Context, p common.Progress) (any, error) {
				return lander.Merge(ctx, plan, p)
			})
			r.work = w
			return r, tea.Batch(cmd, r.spin.Tick)
		}
		r.off = r.scroll(msg)
	}
	return r, nil
}

func (r *Receipt) scroll(msg tea.KeyMsg) int {
	n, _ := r.keys.List.Move(msg, r.off, 1<<30, r.h)
	return c.Clamp(n, len(r.lines()), r.h)
}

// View draws the preview.
func (r *Receipt) View() string {
	vis, _ := c.Window(r.lines(), r.off, r.h)
	return c.Pad(vis, r.w, r.h)
}

func (r *Receipt) lines() []string {
	th, p := r.c.Theme, r.plan
	m := p.Receipt
	lb := func(s string) string { return c.Label(th.Muted, s) }
	kind := "Receipt"
	if p.Kind != "" && p.Kind != "receipt" {
		kind = "Pack" // a handoff offered for merging (--into): refused below
	}
	file := c.Line(p.File)
	if kind == "Pack" {
		file += th.Muted.Render(" · " + c.Line(p.Kind))
	}
	out := []string{
		lb(kind) + file,
		lb("From") + th.Sender.Render(c.Line(p.Origin.By())) + th.Muted.Render(" · "+c.Line(p.PackedAt)),
	}
	if len(p.Lineage.Chain) > 0 {
		var hops []string
		for _, e := range p.Lineage.Chain {
			hops = append(hops, c.Line(e))
		}
		out = append(out, lb("Lineage")+strings.Join(hops, th.Muted.Render(" → ")))
	}
	if m == nil {
		return append(out, "", th.Fail.Render("✗ the core gave no merge plan for this receipt"))
	}
	target := th.Title.Render(c.Line(m.Target))
	if m.TargetTitle != "" {
		target += th.Muted.Render(" · ") + c.Line(m.TargetTitle)
	}
	why := th.Muted.Render("(the entry before the last in the chain, §4.4.1)")
	if m.Target == "" {
		// nothing to name: a handoff, or a chain too short to answer anyone
	} else if one := lb("Answers") + target + "  " + why; c.Width(one) <= r.w {
		out = append(out, one)
	} else {
		out = append(out, lb("Answers")+target, lb("")+why)
	}
	if m.Refusal != nil {
		ws := c.Wrap("refused: "+m.Refusal.Why, r.w-2)
		out = append(out, "", th.Fail.Render("✗ "+ws[0]))
		for _, ln := range ws[1:] {
			out = append(out, "  "+th.Fail.Render(ln))
		}
		if m.Refusal.Rule != "" || m.Refusal.Quote != "" {
			out = append(out, th.Muted.Render("  "+c.Line(m.Refusal.Rule)))
			for _, ln := range c.Wrap(m.Refusal.Quote, r.w-6) {
				out = append(out, "  "+th.Muted.Render("> ")+ln)
			}
		}
		out = append(out, "", th.Muted.Render("Nothing was written. esc to leave."))
		return out
	}
	if m.Already {
		out = append(out, "", th.Warn.Render("⚠ this receipt was merged before: merging again changes nothing"))
	}
	// The plan's warnings before anything else is read: a chain naming a
	// version the target never sent (§4.4.1), text that reads like an
	// instruction, a repair — the person merges knowing them.
	for i, w := range p.Warnings {
		if i == 0 {
			out = append(out, "")
		}
		head := "⚠ " + warningKind(w.Kind)
		if w.Kind == "note" {
			head = "⚠ warning" // the core's own line, not a finding in the pack's text
		}
		if w.Where != "" {
			head += th.Muted.Render(" · " + c.Line(w.Where))
		}
		out = append(out, th.Warn.Render(head))
		for _, ln := range c.Wrap(w.Text, max(r.w-6, 10)) {
			out = append(out, "    "+th.Data.Render("│ "+ln))
		}
	}
	if r.merged != nil {
		out = append(out, "", th.Pass.Render(fmt.Sprintf("✓ merged into %s (now version %d, %s changed)", c.Line(r.merged.Target), r.merged.Version, c.Count(r.merged.Changed, "ask", "asks"))))
		// What the merge found and did, in tp's words (quoting the pack
		// where they name its text), before the way out.
		for _, w := range r.merged.Warnings {
			ws := c.Wrap(w, max(r.w-2, 10))
			out = append(out, th.Warn.Render("⚠ ")+ws[0])
			for _, ln := range ws[1:] {
				out = append(out, "  "+ln)
			}
		}
		out = append(out, th.Muted.Render("goal, current state and next steps were left as they were. enter or esc to finish"))
	}
	col := max((r.w-6)/2, 10)
	out = append(out, "", th.Subtitle.Render("Asks: before → after"))
	for _, a := range m.Asks {
		head := "  " + th.Muted.Render(c.Line(a.ID)) + " " + c.Line(a.What)
		if a.Adopted {
			head += th.Warn.Render("  (new: adopted as an open ask for you)")
		}
		out = append(out, c.Fit(head, r.w))
		before := askCell(a.Before)
		after := askCell(a.After)
		if a.Adopted {
			before = "—"
		}
		// Side by side, each cell wrapped in its column: an answer is
		// read in full before it is merged.
		colA := max(r.w-col-7, 10) // what is left right of "    before → "
		bl, al := c.Wrap(before, col), c.Wrap(after, colA)
		for i := 0; i < max(len(bl), len(al)); i++ {
			b, a, arrow := "", "", " "
			if i < len(bl) {
				b = bl[i]
			}
			if i < len(al) {
				a = al[i]
			}
			if i == 0 {
				arrow = th.Muted.Render("→")
			}
			out = append(out, fmt.Sprintf("    %s %s %s", c.PadRight(c.Fit(b, col), col), arrow, c.Fit(a, colA)))
		}
	}
	if len(m.Asks) == 0 {
		out = append(out, th.Muted.Render("  none"))
	}
	out = append(out, "", th.Subtitle.Render("Landing checks of the sender's machine")+th.Muted.Render(" — reported, not adopted as yours"))
	for _, ch := range m.Checks {
		st := ch.Status
		if st == "" {
			st = "pending"
		}
		out = append(out, c.Fit("  "+th.Muted.Render(c.Line(st))+" "+c.Line(ch.Check), r.w))
	}
	if len(m.Checks) == 0 {
		out = append(out, th.Muted.Render("  none"))
	}
	// Every fact the receipt carries is listed; those the target holds
	// already are said to be there, so "none" never stands for facts that
	// merging leaves as they are (issue 17).
	added := map[string]bool{}
	for _, f := range m.Facts {
		added[f.Claim+"\x00"+f.Scope] = true
	}
	facts, listed := append([]common.Fact(nil), p.Facts...), map[string]bool{}
	for _, f := range facts {
		listed[f.Claim+"\x00"+f.Scope] = true
	}
	for _, f := range m.Facts {
		if !listed[f.Claim+"\x00"+f.Scope] {
			facts = append(facts, f)
		}
	}
	out = append(out, "")
	out = append(out, c.WrapStyled(th.Subtitle.Render("Facts")+th.Muted.Render(fmt.Sprintf(" — %s in the receipt, %d new to %s; sealed as §4.2 says",
		c.Count(len(facts), "fact", "facts"), len(m.Facts), c.Line(m.Target))), r.w)...)
	for _, f := range facts {
		icon := th.Pass.Render("✓ ")
		tail := " · " + c.Line(f.Scope)
		if f.Sealed {
			icon = th.Warn.Render("⚠ ")
			tail = " · sealed, verified_on " + c.Line(f.Where())
		}
		if !added[f.Claim+"\x00"+f.Scope] {
			tail += " · already in " + c.Line(m.Target)
		}
		for i, ln := range c.WrapStyled(icon+c.Line(f.Claim)+th.Muted.Render(tail), r.w-4) {
			lead := "  "
			if i > 0 {
				lead = "    "
			}
			out = append(out, lead+ln)
		}
	}
	if len(facts) == 0 {
		out = append(out, th.Muted.Render("  none"))
	}
	out = append(out, r.luggageLines()...)
	if r.err != nil {
		out = append(out, "", th.Error.Render("✗ ")+c.Line(r.err.Error()))
	}
	if r.work != nil {
		out = append(out, "", r.spin.View()+" merging…")
	} else if r.merged == nil {
		out = append(out, "", th.Key.Render("enter")+" merge · "+th.Key.Render("esc")+" cancel (nothing is written)")
	}
	return out
}

func askCell(a common.Ask) string {
	st := a.Status
	if st == "" {
		st = "open"
	}
	if a.Answer != "" {
		return st + ": " + c.Line(a.Answer)
	}
	return st
}

// luggageLines are the files the receipt brings and the folder they go to
// inside the target's files (§4.4.1).
func (r *Receipt) luggageLines() []string {
	th, p := r.c.Theme, r.plan
	out := []string{"", th.Subtitle.Render("Luggage")}
	if len(p.Luggage) == 0 {
		return append(out[:1], th.Subtitle.Render("Luggage")+th.Muted.Render(" — none: the receipt brings no files"))
	}
	var total int64
	for _, f := range p.Luggage {
		total += f.Size
	}
	out[1] += th.Muted.Render(" — " + c.Count(len(p.Luggage), "file", "files") + ", " + c.HumanBytes(total))
	if p.FilesDir != "" {
		out = append(out, c.PathRows("  "+th.Muted.Render("goes to "), p.FilesDir, r.w)...)
	}
	if p.Receipt != nil && p.Receipt.LuggageThere {
		out = append(out, "  "+th.Warn.Render("already there from an earlier merge: not written again"))
	}
	for _, f := range p.Luggage {
		out = append(out, c.PathRows(fmt.Sprintf("  %10s  ", c.HumanBytes(f.Size)), f.Name, r.w)...)
	}
	return out
}
