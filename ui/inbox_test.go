package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tp-dev/tp/ui/common"
)

type fakeInbox struct {
	acts     []common.Act
	findings []string
	applied  []common.Action
	preview  []common.Action
	text     string // when set, what Preview returns
	// batches are the batches written; refuse, when set, refuses every
	// batch preview with it (all or nothing).
	batches    [][]common.Action
	previewAll [][]common.Action
	refuse     error
	// the undo window: the last settlement written, and whether it was
	// seen (pushed or applied)
	last      []common.Action
	seen      bool
	discarded int
}

func (f *fakeInbox) UndoInfo(ctx context.Context) (common.UndoInfo, error) {
	info := common.UndoInfo{Seen: f.seen, Why: "not pushed to origin/main and not applied by a registrar"}
	if f.seen {
		info.Why = "it was pushed to origin/main"
	}
	for _, a := range f.last {
		info.Acts = append(info.Acts, common.Action{Kind: common.ActReopen, Key: a.Key, Project: a.Project})
	}
	return info, nil
}

func (f *fakeInbox) Discard(ctx context.Context) ([]*common.Act, error) {
	if f.seen {
		return nil, errors.New("seen meanwhile")
	}
	var out []*common.Act
	for _, a := range f.last {
		for i := range f.acts {
			if f.acts[i].Key == a.Key {
				f.acts[i].Status, f.acts[i].Outcome = "open", ""
				x := f.acts[i]
				out = append(out, &x)
			}
		}
	}
	f.discarded += len(out)
	f.last = nil
	return out, nil
}

func (f *fakeInbox) PreviewAll(ctx context.Context, as []common.Action) (string, error) {
	f.previewAll = append(f.previewAll, as)
	if f.refuse != nil {
		return "", f.refuse
	}
	var b strings.Builder
	for i, a := range as {
		t, _ := f.Preview(ctx, a)
		fmt.Fprintf(&b, "── %d of %d: %s %s ──\n%s\n", i+1, len(as), a.Project, a.Key, t)
	}
	f.preview = f.preview[:len(f.preview)-len(as)]
	return strings.TrimRight(b.String(), "\n"), nil
}

func (f *fakeInbox) ApplyAll(ctx context.Context, as []common.Action) ([]*common.Act, error) {
	f.batches = append(f.batches, as)
	var out []*common.Act
	for _, a := range as {
		act, err := f.Apply(ctx, a)
		if err != nil {
			return nil, err
		}
		out = append(out, act)
	}
	f.applied = f.applied[:len(f.applied)-len(as)]
	f.last = nil
	if as[0].Kind == common.ActSettle {
		f.last = as
	}
	return out, nil
}

func (f *fakeInbox) LoadActs(ctx context.Context) (common.ActList, error) {
	return common.ActList{Acts: f.acts, Findings: f.findings}, nil
}

func (f *fakeInbox) Preview(ctx context.Context, a common.Action) (string, error) {
	f.preview = append(f.preview, a)
	if f.text != "" {
		return f.text, nil
	}
	b, _ := json.MarshalIndent(map[string]string{"type": a.Kind, "key": a.Key, "outcome": a.Outcome, "same_as": a.SameAs, "note": a.Note}, "", "  ")
	return string(b), nil
}

func (f *fakeInbox) Apply(ctx context.Context, a common.Action) (*common.Act, error) {
	f.applied = append(f.applied, a)
	f.last = nil
	if a.Kind == common.ActSettle {
		f.last = []common.Action{a}
	}
	for _, x := range f.acts {
		if x.Key == a.Key {
			switch a.Kind {
			case common.ActSettle:
				x.Status, x.Outcome = "settled", a.Outcome
			case common.ActReopen:
				x.Status, x.Outcome = "open", ""
			case common.ActNote:
				x.Notes = append(x.Notes, a.Note)
			}
			return &x, nil
		}
	}
	return nil, fmt.Errorf("no act %s", a.Key)
}

func sampleActs() []common.Act {
	return []common.Act{
		{Key: "k-pay", Project: "shop", Status: "open", Text: "Pay the invoice from ACME", Due: "2026-12-01", TermsRev: 2,
			History: []common.Revision{{Type: "raised", Rev: 1, TS: "2026-11-01T10:00:00Z", Text: "Pay the invoice"}, {Type: "amended", Rev: 2, TS: "2026-11-02T10:00:00Z", Text: "Pay the invoice from ACME"}},
			Claims:  []common.Claim{{By: "agent-7", Outcome: "done", Basis: "line removed in commit abc: paid " + hostile}}},
		{Key: "k-sign", Project: "legal", Status: "open", Text: "Sign the NDA " + hostile, Withdrawn: true, TermsRev: 1},
		{Key: "k-dom", Project: "shop", Status: "open", Text: "Renew the domain", TermsRev: 1},
		{Key: "k-old", Project: "shop", Status: "settled", Outcome: "done", Text: "Buy the part", TermsRev: 2, SettledRev: 1},
	}
}

func newInboxApp(t *testing.T, f *fakeInbox) *driver {
	c := testCommon(t, common.Deps{Inbox: f})
	return newDriver(t, New(c, NewInbox(c)))
}

func inboxOf(d *driver) *InboxScreen { return d.app().Top().(*InboxScreen) }

func TestInboxSettleShowsRecordFirst(t *testing.T) {
	f := &fakeInbox{acts: sampleActs()}
	d := newInboxApp(t, f)
	s := inboxOf(d)
	if got := len(s.Visible()); got != 3 {
		t.Fatalf("%d visible; settled acts are hidden by default", got)
	}
	d.keys("d")
	if len(f.applied) != 0 {
		t.Fatal("written before the person saw the record")
	}
	if !strings.Contains(d.view(), `"outcome": "done"`) {
		t.Fatalf("preview not shown:\n%s", d.view())
	}
	d.keys("n")
	if len(f.applied) != 0 {
		t.Fatal("written after cancel")
	}
	d.keys("d", "y")
	if len(f.applied) != 1 || f.applied[0].Outcome != "done" || f.applied[0].Key != "k-pay" {
		t.Fatalf("applied %+v", f.applied)
	}
	if len(s.Visible()) != 2 {
		t.Fatal("settled act still listed as open")
	}
}

func TestInboxKeys(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		want []common.Action
		vis  int
	}{
		{"drop", []string{"x", "y"}, []common.Action{{Kind: common.ActSettle, Key: "k-pay", Project: "shop", Outcome: "dropped", TermsRev: 2}}, 2},
		{"already done picks same_as", []string{"a", "enter", "y"}, []common.Action{{Kind: common.ActSettle, Key: "k-pay", Project: "shop", Outcome: "already_done", SameAs: "k-dom", TermsRev: 2}}, 2},
		{"already done cancelled", []string{"a", "esc"}, nil, 3},
		{"note", []string{"n", "c", "a", "l", "l", "e", "d", " ", "q", "ctrl+s", "y"}, []common.Action{{Kind: common.ActNote, Key: "k-pay", Project: "shop", Note: "called q"}}, 3},
		{"note discarded", []string{"n", "x", "esc"}, nil, 3},
		{"reopen a settled act", []string{"S", "G", "r", "y"}, []common.Action{{Kind: common.ActReopen, Key: "k-old", Project: "shop"}}, 4},
		{"reopen ignored on open act", []string{"r"}, nil, 3},
		{"settle ignored on settled act", []string{"S", "G", "d", "x"}, nil, 4},
		{"filter by text", []string{"/", "d", "o", "m", "enter", "d", "y"}, []common.Action{{Kind: common.ActSettle, Key: "k-dom", Project: "shop", Outcome: "done", TermsRev: 1}}, 0},
		{"filter cleared by esc", []string{"/", "z", "z", "esc"}, nil, 3},
		{"project filter", []string{"tab"}, nil, 1},
		{"project filter cycles back", []string{"tab", "tab", "tab"}, nil, 3},
		{"withdrawn: drop it", []string{"down", "x", "y"}, []common.Action{{Kind: common.ActSettle, Key: "k-sign", Project: "legal", Outcome: "dropped", TermsRev: 1}}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeInbox{acts: sampleActs()}
			d := newInboxApp(t, f)
			d.keys(tt.keys...)
			if fmt.Sprint(f.applied) != fmt.Sprint(tt.want) {
				t.Fatalf("applied %+v, want %+v", f.applied, tt.want)
			}
			if got := len(inboxOf(d).Visible()); got != tt.vis {
				t.Fatalf("%d visible, want %d\n%s", got, tt.vis, d.view())
			}
			if d.Quit {
				t.Fatal("quit")
			}
		})
	}
}

func TestInboxQuitWritesNothing(t *testing.T) {
	f := &fakeInbox{acts: sampleActs()}
	d := newInboxApp(t, f)
	d.keys("d", "q")
	if len(f.applied) != 0 || !d.Quit {
		t.Fatal("q from the preview wrote or did not quit")
	}
}

func TestInboxGoldens(t *testing.T) {
	for _, tc := range []struct {
		name string
		keys []string
	}{
		{"list", nil},
		{"withdrawn", []string{"down"}},
		{"preview", []string{"d"}},
		{"pick", []string{"a"}},
		{"settled", []string{"S", "G"}},
		{"note", []string{"n", "h", "i"}},
		{"filter", []string{"/", "s", "h"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newInboxApp(t, &fakeInbox{acts: sampleActs()})
			d.keys(tc.keys...)
			v := d.view()
			assertSafe(t, v)
			requireGolden(t, v)
		})
	}
}

// Theme × width matrix on the inbox.
func TestInboxThemeMatrix(t *testing.T) {
	for _, theme := range []string{"default", "high-contrast", "no-color"} {
		for _, w := range []int{80, 100} {
			t.Run(fmt.Sprintf("%s/%d", theme, w), func(t *testing.T) {
				c := testCommon(t, common.Deps{Inbox: &fakeInbox{acts: sampleActs()}})
				c.Theme = colorTheme(t, theme)
				d := newDriver(t, New(c, NewInbox(c)))
				d.send(tea.WindowSizeMsg{Width: w, Height: 24})
				v := d.view()
				assertSafe(t, v)
				golden := strings.ReplaceAll(v, "\x1b", `\e`)
				requireGolden(t, golden)
			})
		}
	}
}

// A preview taller than the screen scrolls, so every record can be read
// before it is written.
func TestInboxPreviewScrolls(t *testing.T) {
	f := &fakeInbox{acts: sampleActs()}
	d := newInboxApp(t, f)
	d.send(tea.WindowSizeMsg{Width: 80, Height: 12})
	d.keys("d")
	if strings.Contains(d.view(), `"type": "settle"`) {
		t.Fatal("the last line fits; make the test preview longer")
	}
	for range 10 {
		d.keys("down")
	}
	if !strings.Contains(d.view(), `"type": "settle"`) {
		t.Fatalf("could not scroll to the end:\n%s", d.view())
	}
	d.keys("y")
	if len(f.applied) != 1 {
		t.Fatal("not written after scrolling")
	}
}

// The inbox says who signed a settlement (D19), and says so when nobody did.
func TestInboxShowsSigner(t *testing.T) {
	for _, tc := range []struct{ signedBy, want string }{
		{"alice SHA256:Zm9vYmFy", "signed by alice SHA256:Zm9vYmFy"},
		{"", "unsigned: the project has no principal"},
	} {
		f := &fakeInbox{acts: []common.Act{{Key: "k-old", Project: "shop", Status: "settled", Outcome: "done", Text: "Buy the part", TermsRev: 1, SettledRev: 1, SignedBy: tc.signedBy}}}
		d := newInboxApp(t, f)
		d.keys("S")
		if v := d.view(); !strings.Contains(v, tc.want) {
			t.Fatalf("want %q in\n%s", tc.want, v)
		}
	}
}

// already_done asks which act it repeats; n says none, and the settlement
// goes without same_as (§2 SHOULD, answered explicitly).
func TestInboxAlreadyDoneNone(t *testing.T) {
	f := &fakeInbox{acts: sampleActs()}
	d := newInboxApp(t, f)
	d.keys("a")
	if v := d.view(); !strings.Contains(v, "which act does it repeat?") {
		t.Fatalf("no question:\n%s", v)
	}
	d.keys("n")
	s := inboxOf(d)
	if s.action.Kind != common.ActSettle || s.action.Outcome != "already_done" || s.action.SameAs != "" {
		t.Fatalf("action %+v", s.action)
	}
}

// The confirmation scrolls to its very end at every size, long lines
// included (they wrap inside the box and are counted), and the notice keeps
// its indent when it wraps (issue 17).
func TestInboxPreviewReachesItsEnd(t *testing.T) {
	notice := "Writing this will register your key: project shop has no principal yet; your key SHA256:" + strings.Repeat("x", 43) + " will be its first principal."
	rec := `{"type":"settled","key":"k-pay","id":"` + strings.Repeat("0123456789", 9) + `","authority":{"by":"ps:tp@laptop"}}`
	text := notice + "\n\n" + rec + "\n" + strings.Replace(rec, "k-pay", "k-last", 1) + "\n}"
	for _, sz := range [][2]int{{60, 20}, {80, 24}, {100, 30}, {60, 12}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			d := newInboxApp(t, &fakeInbox{acts: sampleActs(), text: text})
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			d.keys("d")
			seen := ""
			for range 60 {
				v := d.view()
				if n := strings.Count(v, "\n") + 1; n > sz[1] {
					t.Fatalf("the view is %d lines on a %d-line screen:\n%s", n, sz[1], v)
				}
				seen += v
				d.keys("down")
			}
			v := d.view()
			for _, want := range []string{"┗", "y write it"} {
				if !strings.Contains(v, want) {
					t.Errorf("scrolled to the end, the dialog lacks %q:\n%s", want, v)
				}
			}
			flat := strings.Join(strings.Fields(strings.NewReplacer("┃", " ", "│", " ").Replace(seen)), "")
			for _, piece := range []string{"k-last", "first principal.", strings.Repeat("0123456789", 9), "ps:tp@laptop"} {
				if !strings.Contains(flat, strings.ReplaceAll(piece, " ", "")) {
					t.Errorf("%q is never on screen while scrolling", piece)
				}
			}
			for _, ln := range strings.Split(seen, "\n") {
				if strings.Contains(ln, "will be its first") && !strings.Contains(ln, "┃   ") {
					t.Errorf("the notice lost its indent: %q", ln)
				}
			}
		})
	}
}

// A record the log did not apply (a settlement whose signature failed, D19)
// is on the inbox's screen, as tp acts list prints it, whatever the list
// shows: the first finding in full, then how many more.
func TestInboxShowsFindings(t *testing.T) {
	forged := "/acts/shop/records/s~3ak-pay.json: settled s:k-pay:1 (k-pay) not applied: signature by a key that is not a principal"
	for _, tc := range []struct {
		name     string
		acts     []common.Act
		findings []string
		want     []string
	}{
		{"one", sampleActs(), []string{forged}, []string{"⚠", "s:k-pay:1 (k-pay) not applied"}},
		{"several", sampleActs(), []string{forged, "/acts/shop/records/x.json: not JSON", "/acts/shop/records/y.json: not JSON"}, []string{"s:k-pay:1 (k-pay) not applied", "and 2 more findings", "tp acts list"}},
		{"nothing open", nil, []string{forged}, []string{"Nothing waiting on you here.", "s:k-pay:1 (k-pay) not applied"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newInboxApp(t, &fakeInbox{acts: tc.acts, findings: tc.findings})
			v := d.view()
			for _, w := range tc.want {
				if !strings.Contains(v, w) {
					t.Errorf("the inbox does not show %q:\n%s", w, v)
				}
			}
		})
	}
	if v := newInboxApp(t, &fakeInbox{acts: sampleActs()}).view(); strings.Contains(v, "⚠ ") {
		t.Errorf("a finding shown for a clean log:\n%s", v)
	}
}

// The "wrong or surprising" of the inbox (issue 17): dropped and done have
// marks of their own; a filter that hides every open act says so; esc on
// the first screen never quits; a withdrawal shows no "rev 0".
func TestInboxSurprises(t *testing.T) {
	acts := []common.Act{
		{Key: "k-done", Project: "shop", Status: "settled", Outcome: "done", Text: "Paid it", TermsRev: 1},
		{Key: "k-drop", Project: "shop", Status: "settled", Outcome: "dropped", Text: "Not needed", TermsRev: 1},
		{Key: "k-open", Project: "shop", Status: "open", Text: "Renew the domain", TermsRev: 1, Withdrawn: true,
			History: []common.Revision{{Type: "raised", Rev: 1, TS: "2026-11-01T10:00:00Z", Text: "Renew"}, {Type: "withdrawn", TS: "2026-11-02T10:00:00Z"}}},
	}
	d := newInboxApp(t, &fakeInbox{acts: acts})
	d.keys("S")
	v := d.view()
	if !strings.Contains(v, "✓ shop") || !strings.Contains(v, "✗ shop") {
		t.Errorf("done and dropped are not told apart:\n%s", v)
	}
	d.keys("S")
	if v := d.view(); strings.Contains(v, "rev 0") || !strings.Contains(v, "withdrawn 2026-11-02") {
		t.Errorf("the history of a withdrawal:\n%s", v)
	}
	d.keys("/")
	d.typeText("zzz")
	d.keys("enter")
	if v := d.view(); strings.Contains(v, "Nothing waiting on you here") || !strings.Contains(v, "1 act is open in all projects: esc clears the filter") {
		t.Errorf("an empty filter reads as nothing waiting:\n%s", v)
	}
	d.keys("esc")
	if inboxOf(d).query != "" {
		t.Fatal("esc did not clear the filter")
	}
	d.keys("esc")
	if d.app().Quitting {
		t.Fatal("esc on the first screen quit tp (q quits)")
	}
	// Opened from home, esc goes back to it.
	c := testCommon(t, common.Deps{Inbox: &fakeInbox{acts: acts}, Home: &fakeHome{&common.HomeData{Projects: []common.ProjectRow{{Project: "shop", Open: 1}}}}})
	h := newDriver(t, New(c, NewHome(c)))
	h.keys("enter")
	if _, ok := h.app().Top().(*InboxScreen); !ok {
		t.Fatalf("enter on a project opened %T", h.app().Top())
	}
	h.keys("esc", "esc")
	if _, ok := h.app().Top().(*Home); !ok || h.app().Quitting {
		t.Fatalf("esc from the inbox went to %T (quitting %v)", h.app().Top(), h.app().Quitting)
	}
}

// The inbox matches keys through its keymap only: every key it acts on is
// one ? can show (issue 17: no raw key strings).
func TestInboxNoRawKeys(t *testing.T) {
	src, err := os.ReadFile("inbox.go")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`msg\.String\(\)`).FindAllIndex(src, -1); len(m) > 0 {
		t.Errorf("ui/inbox.go matches %d keys as raw strings", len(m))
	}
}

// While typing, the help line offers no key that is a letter being typed
// (? and q), and the note editor's title and help name the same key the
// same way (issue 17).
func TestTypingHelpLine(t *testing.T) {
	d := newInboxApp(t, &fakeInbox{acts: sampleActs()})
	d.keys("n")
	v := d.view()
	ls := strings.Split(v, "\n")
	foot := ls[len(ls)-1]
	if strings.Contains(foot, "? help") || strings.Contains(foot, "q quit") || !strings.Contains(foot, "ctrl+c quit") {
		t.Errorf("while typing a note the help line is %q", foot)
	}
	if !strings.Contains(foot, "ctrl+s review") || !strings.Contains(v, "(ctrl+s review · esc discard)") {
		t.Errorf("the note's title and help disagree:\n%s", v)
	}
	d.keys("esc", "/")
	ls = strings.Split(d.view(), "\n")
	if foot := ls[len(ls)-1]; strings.Contains(foot, "q quit") {
		t.Errorf("while typing a filter the help line is %q", foot)
	}
}

// The inbox works on many acts at once (issue 17): space marks an act (a
// visible mark, a count in the header), marks survive filtering and say how
// many are off screen; d, x and n act on every marked act with one preview
// of every record and one write (one batch); esc cancels and writes nothing.
func TestInboxMarksActOnAll(t *testing.T) {
	t.Parallel()
	f := &fakeInbox{acts: sampleActs()}
	d := newInboxApp(t, f)
	s := inboxOf(d)
	d.keys(" ") // k-pay, and the cursor moves on to k-sign
	d.keys("down", " ")
	if n, _ := s.Marked(); n != 2 {
		t.Fatalf("%d marked, want 2", n)
	}
	v := stripANSI(d.view())
	if !strings.Contains(v, "● 2 marked") || strings.Count(v, "●") != 3 {
		t.Fatalf("the marks are not shown:\n%s", v)
	}
	// A filter that hides a marked act keeps the mark and says so.
	d.keys("tab") // project legal? the first project in order
	_, hidden := s.Marked()
	if v := stripANSI(d.view()); hidden == 0 || !strings.Contains(v, fmt.Sprintf("(%d not shown here)", hidden)) {
		t.Fatalf("a mark off screen is not counted (%d hidden):\n%s", hidden, v)
	}
	d.keys("esc")
	d.keys("x")
	if len(f.previewAll) != 1 || len(f.previewAll[0]) != 2 {
		t.Fatalf("previewed %v, want one batch of two", f.previewAll)
	}
	v = stripANSI(d.view())
	for _, want := range []string{"settled 2 acts as dropped", "1 of 2: shop k-pay", "2 of 2: shop k-dom", "All together or none"} {
		if !strings.Contains(squash(v), want) {
			t.Fatalf("the batch preview does not show %q:\n%s", want, v)
		}
	}
	d.keys("esc")
	if len(f.batches) != 0 {
		t.Fatal("written after cancel")
	}
	d.keys("x", "y")
	if len(f.batches) != 1 || len(f.batches[0]) != 2 || f.batches[0][0].Outcome != "dropped" || len(f.applied) != 0 {
		t.Fatalf("batches %v applied %v, want one batch of two drops", f.batches, f.applied)
	}
	if n, _ := s.Marked(); n != 0 {
		t.Errorf("%d still marked after the write", n)
	}
	if !strings.Contains(stripANSI(d.view()), "settled 2 acts as dropped") {
		t.Errorf("no status after the write:\n%s", d.view())
	}
}

// All or nothing (issue 17): when one marked act cannot be written, the
// preview is refused, the screen says which and why, nothing is written and
// the marks stay.
func TestInboxBatchRefusedSaysWhich(t *testing.T) {
	t.Parallel()
	f := &fakeInbox{acts: sampleActs(), refuse: errors.New("1 act cannot be written, so none was (all or nothing): shop k-dom: already settled (done)")}
	d := newInboxApp(t, f)
	d.keys(" ", " ", " ", "d")
	v := squash(d.view())
	if !strings.Contains(v, "so none was") || !strings.Contains(v, "k-dom: already settled") {
		t.Fatalf("the refusal does not say which and why:\n%s", d.view())
	}
	if len(f.batches) != 0 || len(f.applied) != 0 {
		t.Fatal("a refused batch was written")
	}
	if n, _ := inboxOf(d).Marked(); n != 3 {
		t.Errorf("%d marked after a refusal, want 3", n)
	}
}

// A note on the marked acts is one batch of notes.
func TestInboxNoteOnMarked(t *testing.T) {
	t.Parallel()
	f := &fakeInbox{acts: sampleActs()}
	d := newInboxApp(t, f)
	d.keys(" ", " ", "n")
	if !strings.Contains(stripANSI(d.view()), "Note on 2 marked acts") {
		t.Fatalf("the note editor does not say it is for the marked acts:\n%s", d.view())
	}
	d.typeText("paid both").keys("ctrl+s", "y")
	if len(f.batches) != 1 || len(f.batches[0]) != 2 || f.batches[0][1].Note != "paid both" {
		t.Fatalf("batches %+v", f.batches)
	}
}

// The undo window (issue 17): right after a settlement the inbox says what
// u does. Nobody saw it yet: "pending until next sync: u undoes", and u
// removes it (nothing written). Seen (pushed, applied): u shows a signed
// reopened first, and y writes it.
func TestInboxUndoWindow(t *testing.T) {
	t.Parallel()
	t.Run("not seen: discarded", func(t *testing.T) {
		f := &fakeInbox{acts: sampleActs()}
		d := newInboxApp(t, f)
		d.keys(" ", " ", "d", "y")
		if v := squash(d.view()); !strings.Contains(v, "pending until next sync: u undoes") {
			t.Fatalf("no undo window after the settlement:\n%s", d.view())
		}
		d.keys("u")
		if f.discarded != 2 || len(f.applied) != 0 {
			t.Fatalf("discarded %d, applied %v", f.discarded, f.applied)
		}
		v := squash(d.view())
		if !strings.Contains(v, "discarded: the settlement of 2 acts was removed") || strings.Contains(v, "u undoes") {
			t.Fatalf("the screen does not say what u did:\n%s", d.view())
		}
		if got := len(inboxOf(d).Visible()); got != 3 {
			t.Errorf("%d open after the undo, want 3", got)
		}
	})
	t.Run("seen: a signed reopened, shown first", func(t *testing.T) {
		f := &fakeInbox{acts: sampleActs(), seen: true}
		d := newInboxApp(t, f)
		d.keys("d", "y")
		if v := squash(d.view()); !strings.Contains(v, "u takes it back with a signed reopened record") {
			t.Fatalf("the undo window does not say u reopens:\n%s", d.view())
		}
		d.keys("u")
		if f.discarded != 0 || !strings.Contains(squash(d.view()), "Write this? reopened k-pay") {
			t.Fatalf("u on a seen settlement did not show the reopen first:\n%s", d.view())
		}
		d.keys("y")
		if n := len(f.applied); n != 2 || f.applied[1].Kind != common.ActReopen {
			t.Fatalf("applied %v", f.applied)
		}
		if strings.Contains(squash(d.view()), "u takes it back") {
			t.Error("the undo window is still offered after the reopen")
		}
	})
}

// The inbox's new screens at three sizes (issue 17): marks with one off
// screen, the batch preview, the undo window.
func TestInboxBatchGoldens(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{100, 30}, {80, 24}, {60, 20}} {
		name := fmt.Sprintf("%dx%d", sz[0], sz[1])
		open := func() (*driver, *fakeInbox) {
			f := &fakeInbox{acts: sampleActs()}
			d := newInboxApp(t, f)
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			return d, f
		}
		d, _ := open()
		d.keys(" ", " ", "tab")
		t.Run("marks/"+name, func(t *testing.T) { v := d.view(); assertSafe(t, v); requireGolden(t, v) })
		d, _ = open()
		d.keys(" ", "down", " ", "d")
		t.Run("batch-preview/"+name, func(t *testing.T) { requireGolden(t, d.view()) })
		d, _ = open()
		d.keys(" ", "down", " ", "d", "y")
		t.Run("undo-window/"+name, func(t *testing.T) { requireGolden(t, d.view()) })
	}
}
