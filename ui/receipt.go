package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
)

// MergedMsg is sent by the receipt screen when the merge is done.
type MergedMsg struct {
	Merged *Merged
	Err    error
}

// ReceiptKeys are the receipt screen's keys.
type ReceiptKeys struct {
	List          ListKeys
	Merge, Cancel key.Binding
}

// DefaultReceiptKeys returns the receipt screen's keys.
func DefaultReceiptKeys() ReceiptKeys {
	return ReceiptKeys{
		List:   DefaultListKeys(),
		Merge:  kb([]string{"enter", "y"}, "enter/y", "merge into the target"),
		Cancel: kb([]string{"esc", "n"}, "esc/n", "cancel"),
	}
}

// Receipt previews and merges a receipt (`tp land RECEIPT`, §4.4.1).
type Receipt struct {
	c      *Common
	keys   ReceiptKeys
	plan   *Plan
	w, h   int
	off    int
	work   *work
	spin   spinner.Model
	merged *Merged
	err    error
}

// NewReceipt returns the receipt screen for a plan of kind receipt.
func NewReceipt(c *Common, plan *Plan) *Receipt {
	r := &Receipt{c: c, keys: DefaultReceiptKeys(), plan: plan,
		spin: spinner.New(spinner.WithSpinner(spinner.Dot), spinner.WithStyle(c.Theme.Key))}
	r.SetSize(c.Width, c.Height-chrome)
	return r
}

func (r *Receipt) Init() tea.Cmd    { return nil }
func (r *Receipt) Title() string    { return "receipt" }
func (r *Receipt) Capturing() bool  { return false }
func (r *Receipt) Busy() bool       { return r.work != nil }
func (r *Receipt) SetSize(w, h int) { r.w, r.h = w, h }
func (r *Receipt) Result() *Merged  { return r.merged }
func (r *Receipt) Err() error       { return r.err }
func (r *Receipt) refused() bool    { return r.plan.Receipt == nil || r.plan.Receipt.Refusal != nil }

// Refusal is the rule that refused the merge, or nil.
func (r *Receipt) Refusal() *Refusal {
	if r.plan.Receipt == nil {
		return nil
	}
	return r.plan.Receipt.Refusal
}
func (r *Receipt) ShortHelp() []key.Binding {
	if r.merged != nil || r.refused() {
		return []key.Binding{r.keys.Cancel}
	}
	return []key.Binding{r.keys.Merge, r.keys.Cancel, r.keys.List.Down}
}
func (r *Receipt) FullHelp() [][]key.Binding {
	return [][]key.Binding{{r.keys.Merge, r.keys.Cancel}, {r.keys.List.Up, r.keys.List.Down, r.keys.List.PageDown}}
}

// Update handles keys and the merge result.
func (r *Receipt) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case spinner.TickMsg:
		if r.work == nil {
			return r, nil
		}
		var cmd tea.Cmd
		r.spin, cmd = r.spin.Update(msg)
		return r, cmd
	case ProgressMsg:
		if r.work != nil && msg.Work == r.work.id {
			return r, r.work.next()
		}
	case WorkDoneMsg:
		if r.work == nil || msg.Work != r.work.id {
			return r, nil
		}
		r.work = nil
		m, _ := msg.Value.(*Merged)
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
	case CancelMsg:
		if r.work != nil {
			r.work.cancel()
		}
	case tea.KeyMsg:
		if r.work != nil {
			return r, nil
		}
		switch {
		case key.Matches(msg, r.keys.Cancel):
			return r, pop
		case key.Matches(msg, r.keys.Merge):
			if r.merged != nil {
				return r, pop
			}
			if r.refused() {
				return r, nil
			}
			lander, plan := r.c.Deps.Lander, r.plan
			w, cmd := startWork(r.c.Ctx, func(ctx context.Context, p Progress) (any, error) {
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
	n, _ := r.keys.List.move(msg, r.off, 1<<30, r.h)
	return n
}

// View draws the preview.
func (r *Receipt) View() string {
	ls := r.lines()
	vis, off := window(ls, r.off, r.h)
	r.off = off
	return pad(vis, r.w, r.h)
}

func (r *Receipt) lines() []string {
	th, p := r.c.Theme, r.plan
	m := p.Receipt
	lb := func(s string) string { return label(th.Muted, s) }
	kind := "Receipt"
	if p.Kind != "" && p.Kind != "receipt" {
		kind = "Pack" // a handoff offered for merging (--into): refused below
	}
	file := line(p.File)
	if kind == "Pack" {
		file += th.Muted.Render(" · " + line(p.Kind))
	}
	out := []string{
		lb(kind) + file,
		lb("From") + th.Sender.Render(line(p.Origin.By())) + th.Muted.Render(" · "+line(p.PackedAt)),
	}
	if len(p.Lineage.Chain) > 0 {
		var hops []string
		for _, e := range p.Lineage.Chain {
			hops = append(hops, line(e))
		}
		out = append(out, lb("Lineage")+strings.Join(hops, th.Muted.Render(" → ")))
	}
	if m == nil {
		return append(out, "", th.Fail.Render("✗ the core gave no merge plan for this receipt"))
	}
	target := th.Title.Render(line(m.Target))
	if m.TargetTitle != "" {
		target += th.Muted.Render(" · ") + line(m.TargetTitle)
	}
	why := th.Muted.Render("(the entry before the last in the chain, §4.4.1)")
	if m.Target == "" {
		// nothing to name: a handoff, or a chain too short to answer anyone
	} else if one := lb("Answers") + target + "  " + why; lipglossWidth(one) <= r.w {
		out = append(out, one)
	} else {
		out = append(out, lb("Answers")+target, lb("")+why)
	}
	if m.Refusal != nil {
		ws := wrap("refused: "+m.Refusal.Why, r.w-2)
		out = append(out, "", th.Fail.Render("✗ "+ws[0]))
		for _, ln := range ws[1:] {
			out = append(out, "  "+th.Fail.Render(ln))
		}
		if m.Refusal.Rule != "" || m.Refusal.Quote != "" {
			out = append(out, th.Muted.Render("  "+line(m.Refusal.Rule)))
			for _, ln := range wrap(m.Refusal.Quote, r.w-6) {
				out = append(out, "  "+th.Muted.Render("> ")+ln)
			}
		}
		out = append(out, "", th.Muted.Render("Nothing was written. esc to leave."))
		return out
	}
	if m.Already {
		out = append(out, "", th.Warn.Render("⚠ this receipt was merged before: merging again changes nothing"))
	}
	if r.merged != nil {
		out = append(out, "", th.Pass.Render(fmt.Sprintf("✓ merged into %s (now version %d, %d asks changed)", line(r.merged.Target), r.merged.Version, r.merged.Changed)),
			th.Muted.Render("goal, current state and next steps were left as they were. enter or esc to finish"))
	}
	col := max((r.w-6)/2, 10)
	out = append(out, "", th.Subtitle.Render("Asks: before → after"))
	for _, a := range m.Asks {
		head := "  " + th.Muted.Render(line(a.ID)) + " " + line(a.What)
		if a.Adopted {
			head += th.Warn.Render("  (new: adopted as an open ask for you)")
		}
		out = append(out, fit(head, r.w))
		before := askCell(a.Before)
		after := askCell(a.After)
		if a.Adopted {
			before = "—"
		}
		// Side by side, each cell wrapped in its column: an answer is
		// read in full before it is merged.
		colA := max(r.w-col-7, 10) // what is left right of "    before → "
		bl, al := wrap(before, col), wrap(after, colA)
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
			out = append(out, fmt.Sprintf("    %s %s %s", padRight(fit(b, col), col), arrow, fit(a, colA)))
		}
	}
	if len(m.Asks) == 0 {
		out = append(out, th.Muted.Render("  none"))
	}
	out = append(out, "", th.Subtitle.Render("Landing checks of the sender's machine")+th.Muted.Render(" — reported, not adopted as yours"))
	for _, c := range m.Checks {
		st := c.Status
		if st == "" {
			st = "pending"
		}
		out = append(out, fit("  "+th.Muted.Render(line(st))+" "+line(c.Check), r.w))
	}
	if len(m.Checks) == 0 {
		out = append(out, th.Muted.Render("  none"))
	}
	out = append(out, "", th.Subtitle.Render("Facts")+th.Muted.Render(" — sealed as §4.2 says"))
	for _, f := range m.Facts {
		icon := th.Pass.Render("✓ ")
		tail := " · " + line(f.Scope)
		if f.Sealed {
			icon = th.Warn.Render("⚠ ")
			tail = " · sealed, verified_on " + line(f.VerifiedOn)
		}
		out = append(out, fit("  "+icon+line(f.Claim)+th.Muted.Render(tail), r.w))
	}
	if len(m.Facts) == 0 {
		out = append(out, th.Muted.Render("  none"))
	}
	if r.err != nil {
		out = append(out, "", th.Error.Render("✗ ")+line(r.err.Error()))
	}
	if r.work != nil {
		out = append(out, "", r.spin.View()+" merging…")
	} else if r.merged == nil {
		out = append(out, "", th.Key.Render("enter")+" merge · "+th.Key.Render("esc")+" cancel (nothing is written)")
	}
	return out
}

func askCell(a Ask) string {
	st := a.Status
	if st == "" {
		st = "open"
	}
	if a.Answer != "" {
		return st + ": " + line(a.Answer)
	}
	return st
}

func padRight(s string, w int) string {
	if n := lipglossWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}
