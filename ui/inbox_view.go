package ui

import (
	"fmt"
	"github.com/tp-dev/tp/internal/plural"
	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/components"
	"strings"
)

// Drawing the inbox: the list, the selected act in detail (with who
// signed its settlement, D19), the preview of records, the same_as picker.

// View draws the inbox.
func (s *InboxScreen) View() string {
	th := s.c.Theme
	if s.loading {
		return components.Pad([]string{th.Muted.Render("Reading the record log…")}, s.w, s.h)
	}
	if s.err != nil && len(s.acts) == 0 {
		return components.Pad(append([]string{th.Error.Render("✗ could not read the acts")}, components.Wrap(s.err.Error(), s.w)...), s.w, s.h)
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
		proj = "project " + components.Line(s.projects[s.proj])
	}
	head := th.Subtitle.Render(fmt.Sprintf("%d open", s.open)) + th.Muted.Render(fmt.Sprintf(" · showing %d · %s", len(s.visible), proj))
	if s.settled {
		head += th.Muted.Render(" · settled shown")
	}
	out = append(out, head)
	if n, hidden := s.Marked(); n > 0 {
		// The marks are always counted, and those the list hides too
		// (issue 17): d, x and n act on all of them.
		m := fmt.Sprintf("● %d marked", n)
		if hidden > 0 {
			m += fmt.Sprintf(" (%d not shown here)", hidden)
		}
		m += " · d/x/n act on all of them · c clears"
		for _, ln := range components.Wrap(m, s.w) {
			out = append(out, th.Warn.Render(ln))
		}
	}
	if s.mode == inboxFilter || s.query != "" {
		out = append(out, s.filter.View())
	}
	if len(s.visible) == 0 {
		// Say why the list is empty: a filter that matches nothing while
		// acts are open is not "nothing waiting" (issue 17).
		msg := "Nothing waiting on you here."
		switch {
		case s.open > 0 && (s.query != "" || s.proj >= 0):
			msg = fmt.Sprintf("No act matches here, but %s open in all projects: esc clears the filter.", components.Count(s.open, "act is", "acts are"))
		case s.open == 0 && len(s.acts) > 0 && !s.settled:
			msg = fmt.Sprintf("Nothing waiting on you: all %s settled (S shows them).", components.Count(len(s.acts), "act is", "acts are"))
		}
		out = append(out, "")
		for _, ln := range components.Wrap(msg, s.w) {
			out = append(out, th.Muted.Render(ln))
		}
		return components.Pad(s.withStatus(out), s.w, s.h)
	}
	lh := s.listHeight()
	s.off = components.Follow(s.off, s.cur, lh, len(s.visible))
	for i := s.off; i < min(s.off+lh, len(s.visible)); i++ {
		a := &s.acts[s.visible[i]]
		row := s.row(a)
		lead, marked := "  ", s.marked[markID(*a)]
		switch {
		case i == s.cur && marked:
			lead = th.Cursor.Render("▸") + th.Warn.Render("●")
		case i == s.cur:
			lead = th.Cursor.Render("▸ ")
		case marked:
			lead = " " + th.Warn.Render("●")
		}
		out = append(out, lead+components.Fit(row, s.w-2))
	}
	out = append(out, th.Muted.Render(strings.Repeat("─", max(s.w, 1))))
	if s.mode == inboxNote {
		a, _ := s.Selected()
		on := components.Line(a.Key)
		if n, _ := s.Marked(); n > 0 {
			on = components.Count(n, "marked act", "marked acts")
		}
		out = append(out, th.Subtitle.Render("Note on ")+on+th.Muted.Render(" ("+s.keys.NoteReview.Help().Key+" "+s.keys.NoteReview.Help().Desc+" · "+s.keys.Edit.Cancel.Help().Key+" "+s.keys.Edit.Cancel.Help().Desc+")"))
		out = append(out, strings.Split(s.note.View(), "\n")...)
	} else {
		out = append(out, s.detail()...)
	}
	return components.Pad(s.withStatus(out), s.w, s.h)
}

func (s *InboxScreen) withStatus(out []string) []string {
	th := s.c.Theme
	var tail []string
	// What the log holds beside the acts (a record whose signature did not
	// verify, a file not read, an applied record gone) is always on screen,
	// as tp acts list prints it (D19): the first in full, then how many
	// more.
	if n := len(s.findings); n > 0 {
		tail = append(tail, th.Warn.Render("⚠ ")+components.Fit(components.Line(s.findings[0]), max(s.w-2, 1)))
		if n > 1 {
			tail = append(tail, th.Warn.Render("⚠ and "+plural.N(n-1, "more finding")+" in the record log: tp acts list shows them all"))
		}
	}
	if s.err != nil {
		// Wrapped, never cut: an all-or-nothing refusal names each act.
		for i, ln := range components.Wrap("✗ "+s.err.Error(), max(s.w-2, 10)) {
			if i > 0 {
				ln = "  " + ln
			}
			tail = append(tail, th.Error.Render(ln))
		}
	} else if s.status != "" {
		for _, ln := range components.Wrap(s.status, s.w) {
			tail = append(tail, th.Pass.Render(ln))
		}
	}
	if u := s.undo; u != nil && s.err == nil {
		// The undo window (issue 17): what u does, said before it is pressed.
		msg := "pending until next sync: u undoes (" + u.Why + ")"
		if u.Seen {
			msg = "u takes it back with a signed reopened record, shown first (" + u.Why + ")"
		}
		for _, ln := range components.Wrap(msg, s.w) {
			tail = append(tail, th.Warn.Render(ln))
		}
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

func (s *InboxScreen) row(a *common.Act) string {
	th := s.c.Theme
	mark := "○"
	switch {
	case a.Status == "settled" && a.Outcome == "dropped":
		// Dropped is not done: a mark of its own (issue 17).
		mark = th.Muted.Render("✗")
	case a.Status == "settled":
		mark = th.Pass.Render("✓")
	case a.Withdrawn:
		mark = th.Warn.Render("⊘")
	case len(a.Claims) > 0:
		mark = th.Warn.Render("?")
	}
	due := ""
	if a.Due != "" {
		due = th.Warn.Render(" due " + components.Line(a.Due))
	}
	return mark + " " + th.Muted.Render(fmt.Sprintf("%-10s", components.Fit(components.Line(a.Project), 10))) + " " + components.Line(a.Text) + due
}

func (s *InboxScreen) detail() []string {
	th := s.c.Theme
	a, ok := s.Selected()
	if !ok {
		return nil
	}
	var out []string
	for _, ln := range components.Wrap(a.Text, s.w-2) {
		out = append(out, th.Text.Render(ln))
	}
	meta := th.Muted.Render("key ") + components.Line(a.Key) + th.Muted.Render(" · project ") + components.Line(a.Project) + th.Muted.Render(fmt.Sprintf(" · terms rev %d", a.TermsRev))
	if a.Due != "" {
		meta += th.Warn.Render(" · due " + components.Line(a.Due))
	}
	out = append(out, meta)
	if a.Status == "settled" {
		st := th.Pass.Render("✓ settled: " + components.Line(a.Outcome))
		if a.Outcome == "dropped" {
			st = th.Muted.Render("✗ settled: dropped")
		}
		if a.SettledRev > 0 && a.SettledRev < a.TermsRev {
			st += th.Warn.Render(fmt.Sprintf(" · the terms changed after (settled at rev %d)", a.SettledRev))
		}
		out = append(out, st+th.Muted.Render(" · r reopens"))
		// Who signed it (D19), on its own line: a fingerprint is long.
		if a.SignedBy != "" {
			out = append(out, th.Muted.Render("  signed by ")+components.Line(a.SignedBy))
		} else {
			out = append(out, th.Warn.Render("  unsigned: the project has no principal"))
		}
	}
	if a.Withdrawn && a.Status != "settled" {
		for _, ln := range components.Wrap("⊘ no longer needed, says the requester — drop it? (x drops; it stays open until you settle it)", s.w) {
			out = append(out, th.Warn.Render(ln))
		}
	}
	for _, c := range a.Claims {
		verb := "done"
		if c.Outcome == "dropped" {
			verb = "dropped"
		}
		// Wrapped, not cut: the basis and the question are the point.
		ln := fmt.Sprintf("? %s says this is %s: %s", components.Line(c.By), verb, components.Line(c.Basis))
		if a.Status != "settled" {
			ln += " — did you do it? (d yes · x no, drop it)"
		}
		for _, w := range components.Wrap(ln, s.w) {
			out = append(out, th.Warn.Render(w))
		}
	}
	if len(a.History) > 1 {
		out = append(out, th.Muted.Render("history"))
		for _, r := range a.History {
			// A withdrawal or a claim carries no terms: no "rev 0".
			rev := ""
			if r.Rev > 0 {
				rev = fmt.Sprintf(" rev %d", r.Rev)
			}
			out = append(out, th.Muted.Render(fmt.Sprintf("  %s%s %s ", components.Line(r.Type), rev, components.Line(r.TS)))+components.Line(r.Text))
		}
	}
	for _, n := range a.Notes {
		out = append(out, th.Muted.Render("note: ")+components.Line(n))
	}
	return out
}

// previewHead is the dialog's first rows, above the records.
func (s *InboxScreen) previewHead() []string {
	th := s.c.Theme
	var head []string
	what := describeAction(s.action)
	if s.actions != nil {
		what = describeActions(s.actions)
	}
	for _, ln := range components.WrapStyled(th.Warn.Render("Write this? ")+th.Subtitle.Render(what), s.previewWidth()) {
		head = append(head, ln)
	}
	if s.actions != nil {
		for _, ln := range components.Wrap("All together or none: one signature pass, one commit. These records go into the record log, exactly as shown:", s.previewWidth()) {
			head = append(head, th.Muted.Render(ln))
		}
		return append(head, "")
	}
	return append(head, th.Muted.Render("These records go into the record log, exactly as shown:"), "")
}

// previewWidth is the width inside the dialog's frame and padding.
func (s *InboxScreen) previewWidth() int { return max(s.w-4, 10) }

// previewBody is the records (and any notice) wrapped to the dialog: every
// line the dialog draws is one of these, so the scroll counts them all and
// the last one can be reached (issue 17). A wrapped line keeps the indent.
func (s *InboxScreen) previewBody() []string {
	var body []string
	for _, ln := range strings.Split(components.Text(s.preview), "\n") {
		ind := "  " + ln[:len(ln)-len(strings.TrimLeft(ln, " "))]
		if len(ind) > s.previewWidth()/2 {
			ind = "  "
		}
		for _, w := range components.Wrap(strings.TrimLeft(ln, " "), s.previewWidth()-len(ind)) {
			body = append(body, ind+w)
		}
	}
	return body
}

// previewRoom is how many record lines the dialog shows at once: the
// frame takes 2 rows, the position and key rows 2 more.
func (s *InboxScreen) previewRoom() int { return max(s.h-4-len(s.previewHead()), 1) }

func (s *InboxScreen) previewView() string {
	th := s.c.Theme
	head := s.previewHead()
	body := s.previewBody()
	room := s.previewRoom()
	vis, off := components.Window(body, s.prevOff, room)
	inner := append(append([]string{}, head...), vis...)
	more := ""
	if len(body) > room {
		more = th.Muted.Render(fmt.Sprintf("  lines %d–%d of %d · ↑/↓ scroll", off+1, off+len(vis), len(body)))
	}
	box := strings.Split(th.Dialog.Width(max(s.w-2, 10)).Render(strings.Join(inner, "\n")), "\n")
	box = append(box, more, th.Key.Render("y")+" write it · "+th.Key.Render("n/esc")+" cancel (nothing is written)")
	return components.Pad(box, s.w, s.h)
}

func (s *InboxScreen) pickView() string {
	th := s.c.Theme
	a, _ := s.Selected()
	out := []string{th.Subtitle.Render("Already done: which act does it repeat?"), th.Muted.Render("for ") + components.Line(a.Text),
		th.Muted.Render("a same_as relation is written with the settlement"), th.Muted.Render("n: it repeats none (done before it was raised)"), ""}
	if len(s.pick) == 0 {
		out = append(out, th.Muted.Render("No other act in this project: n settles it as already done, esc goes back."))
		return components.Pad(out, s.w, s.h)
	}
	lh := max(s.h-len(out), 1)
	s.pickOff = components.Follow(s.pickOff, s.pickCur, lh, len(s.pick))
	for i := s.pickOff; i < min(s.pickOff+lh, len(s.pick)); i++ {
		row := s.row(&s.acts[s.pick[i]])
		if i == s.pickCur {
			out = append(out, th.Cursor.Render("▸ ")+components.Fit(row, s.w-2))
		} else {
			out = append(out, "  "+components.Fit(row, s.w-2))
		}
	}
	return components.Pad(out, s.w, s.h)
}
