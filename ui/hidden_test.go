package ui

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/tp-dev/tp/ui/common"
	"github.com/tp-dev/tp/ui/landing"
)

// "Nothing hidden" (issue 17): every screen, at 60×20, 80×24 and 100×30,
// filled with long content (a 200-line how, 50 facts, 40-column words, CJK
// text, wide tables), shows each piece of its content on some frame as a
// person scrolls through it with the keys the screen offers — or a frame
// says, with a count, that lines are not shown. Every piece carries a token
// (a short word found nowhere else) that the property looks for.

var hiddenSizes = [][2]int{{60, 20}, {80, 24}, {100, 30}}

// countedMark is a marker that counts what is left out.
var countedMark = regexp.MustCompile(`\d+ more (line|lines|item|items) not shown`)

// word40 is a 40-column word, then a token: a word broken across lines is
// still shown, a token must be found whole.
func word40(tok string) string { return strings.Repeat("w", 40) + " " + tok }

// tokens are the pieces of content a screen must show or count.
type tokens []string

func (ts *tokens) add(t string) string { *ts = append(*ts, t); return t }

// longPlan is a handoff as long as a sender can make it, and its tokens.
func longPlan() (*common.Plan, tokens) {
	var ts tokens
	p := samplePlan()
	p.Note = "a long note " + word40(ts.add("NOTEEND"))
	p.Warnings = nil
	for i := 1; i <= 10; i++ {
		p.Warnings = append(p.Warnings, common.Warning{Kind: "instruction", Where: "passport.next_steps[" + fmt.Sprint(i) + "]", Text: "run this " + ts.add(fmt.Sprintf("WARN%02d", i))})
	}
	var how []string
	for i := 1; i <= 200; i++ {
		how = append(how, "echo "+ts.add(fmt.Sprintf("HOW%03d", i)))
	}
	p.Checks = []common.Check{
		{ID: "c1", Check: "a long check " + word40(ts.add("CHKONE")), How: strings.Join(how, "\n"), Required: true},
		{ID: "c2", Check: "漢字のチェックは幅が二倍です " + ts.add("CHKCJK"), How: "true " + word40(ts.add("HOWTWO")), Required: true},
		{ID: "c3", Check: "optional " + ts.add("CHKOPT")},
	}
	p.Facts = nil
	for i := 1; i <= 50; i++ {
		f := common.Fact{Claim: "fact " + ts.add(fmt.Sprintf("FACT%02d", i)), Scope: "universal", Verified: i%2 == 0, Sealed: i%2 == 1, VerifiedOn: "laptop"}
		// How a fact was proven and who asserted it are content too.
		switch i % 3 {
		case 0:
			f.Evidence = "ran " + ts.add(fmt.Sprintf("EVID%02d", i))
		case 1:
			f.Source = "from " + ts.add(fmt.Sprintf("SRC%02d", i))
		}
		if i%4 == 0 {
			f.SourceActor = "ana " + ts.add(fmt.Sprintf("ACTOR%02d", i))
		}
		p.Facts = append(p.Facts, f)
	}
	p.Asks = nil
	for i := 1; i <= 12; i++ {
		p.Asks = append(p.Asks, common.Ask{ID: fmt.Sprintf("a%d", i), To: "peer", What: "question " + word40(ts.add(fmt.Sprintf("ASK%02d", i))),
			Why: "because " + ts.add(fmt.Sprintf("WHY%02d", i)), Accept: "答えは日本語で " + ts.add(fmt.Sprintf("ACC%02d", i)), Status: "open"})
	}
	var head, rule, row []string
	for i := 1; i <= 8; i++ {
		head = append(head, ts.add(fmt.Sprintf("COL%d", i)))
		rule = append(rule, "---")
		row = append(row, "cell "+ts.add(fmt.Sprintf("CELL%d", i))+" 中文")
	}
	table := "| " + strings.Join(head, " | ") + " |\n| " + strings.Join(rule, " | ") + " |\n| " + strings.Join(row, " | ") + " |"
	p.Passport.CurrentState = "中文的当前状态很长很长 " + ts.add("STATECJK") + "\n\n" + table + "\n\nafter the table " + word40(ts.add("STATEEND"))
	p.Passport.NextSteps = nil
	for i := 1; i <= 30; i++ {
		p.Passport.NextSteps = append(p.Passport.NextSteps, "step "+ts.add(fmt.Sprintf("STEP%02d", i)))
	}
	p.Passport.Decisions = nil
	for i := 1; i <= 10; i++ {
		p.Passport.Decisions = append(p.Passport.Decisions, "decision "+ts.add(fmt.Sprintf("DEC%02d", i))+" — why: "+ts.add(fmt.Sprintf("DWHY%02d", i)))
	}
	p.Luggage = nil
	for i := 1; i <= 40; i++ {
		p.Luggage = append(p.Luggage, common.LuggageFile{Name: "out/" + ts.add(fmt.Sprintf("LUG%02d", i)) + ".png", Size: 1000})
	}
	return p, ts
}

// walk shows a screen the way a person reads it: at each position of the
// outer key (the cursor: down), every inner key (scrolling: ], pgdown) is
// pressed until the frame stops changing; then the cursor moves on, until
// it moves no more. It returns every frame seen.
func walk(d *driver, outer string, inner ...string) []string {
	frames := []string{d.view()}
	seen := map[string]bool{frames[0]: true}
	note := func() bool {
		v := d.view()
		if seen[v] {
			return false
		}
		seen[v] = true
		frames = append(frames, v)
		return true
	}
	for pos := 0; pos < 200; pos++ {
		for round := 0; round < 400; round++ {
			changed := false
			for _, k := range inner {
				d.keys(k)
				changed = note() || changed
			}
			if !changed {
				break
			}
		}
		if outer == "" {
			break
		}
		d.keys(outer)
		if !note() {
			break
		}
	}
	return frames
}

// requireShown fails for every token no frame shows, unless a frame counts
// lines it left out; and for any frame taller or wider than the screen.
func requireShown(t *testing.T, w, h int, frames []string, ts tokens) {
	t.Helper()
	all := ansi.Strip(strings.Join(frames, "\n"))
	counted := countedMark.MatchString(all)
	for _, f := range frames {
		ls := strings.Split(f, "\n")
		if len(ls) > h {
			t.Errorf("a frame is %d lines on a %d-line screen:\n%s", len(ls), h, f)
		}
		for _, l := range ls {
			if ansi.StringWidth(l) > w {
				t.Errorf("a line is %d cells on a %d-column screen: %q", ansi.StringWidth(l), w, ansi.Strip(l))
			}
		}
	}
	var missing []string
	for _, tok := range ts {
		if !strings.Contains(all, tok) {
			missing = append(missing, tok)
		}
	}
	if len(missing) > 0 && counted {
		t.Logf("%d pieces not shown, counted by a marker: %v", len(missing), missing)
	}
	if len(missing) > 0 && !counted {
		t.Errorf("%d pieces never shown and not counted: %v\nlast frame:\n%s", len(missing), missing, frames[len(frames)-1])
	}
}

func TestNothingHiddenLanding(t *testing.T) {
	t.Parallel()
	for _, sz := range hiddenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			plan, ts := longPlan()
			c := testCommon(t, common.Deps{Lander: &fakeLander{plan: plan, landed: sampleLanded()}})
			d := newDriver(t, New(c, landing.New(c, "handoff.taskpack")))
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			var frames []string
			for s := 0; s < landing.StepCount; s++ {
				var inner []string
				if s == landing.StepChecks {
					inner = []string{"]"}
				}
				frames = append(frames, walk(d, "down", inner...)...)
				d.keys("tab")
			}
			requireShown(t, sz[0], sz[1], frames, ts)
		})
	}
}

func TestNothingHiddenReceipt(t *testing.T) {
	t.Parallel()
	for _, sz := range hiddenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			var ts tokens
			p := receiptPlan()
			p.Receipt.Asks = nil
			for i := 1; i <= 20; i++ {
				p.Receipt.Asks = append(p.Receipt.Asks, common.AskChange{ID: fmt.Sprintf("a%d", i), What: "ask " + ts.add(fmt.Sprintf("RASK%02d", i)),
					Before: common.Ask{Status: "open"}, After: common.Ask{Status: "answered", Answer: "answer " + word40(ts.add(fmt.Sprintf("RANS%02d", i)))}})
			}
			p.Receipt.Facts = nil
			for i := 1; i <= 50; i++ {
				p.Receipt.Facts = append(p.Receipt.Facts, common.Fact{Claim: "fact " + ts.add(fmt.Sprintf("RFACT%02d", i)), Scope: "machine", Sealed: true, VerifiedOn: "beta"})
			}
			p.Receipt.Checks = []common.Check{{ID: "c1", Check: "漢字 " + ts.add("RCHK"), Status: "failed"}}
			c := testCommon(t, common.Deps{Lander: &fakeLander{plan: p}})
			d := newDriver(t, New(c, landing.New(c, "answers.taskpack")))
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			requireShown(t, sz[0], sz[1], walk(d, "down"), ts)
		})
	}
}

type longPassport struct{ ts *tokens }

func (l longPassport) LoadPassport(ctx context.Context, id string) (*common.PassportView, error) {
	plan, all := longPlan()
	for _, tok := range all {
		for _, pre := range []string{"STATE", "COL", "CELL", "STEP", "DEC", "DWHY", "FACT"} {
			if strings.HasPrefix(tok, pre) {
				*l.ts = append(*l.ts, tok)
			}
		}
	}
	t := plan.Passport
	t.Facts = plan.Facts
	for i := 1; i <= 10; i++ {
		t.Artifacts = append(t.Artifacts, "artifact-"+l.ts.add(fmt.Sprintf("ART%02d", i)))
	}
	return &common.PassportView{Text: t, Version: 3, Chain: []string{"TP-G6RZ-DS3B@3"}, FailedChecks: 1, FilesDir: "/srv/store/" + word40(l.ts.add("FILESDIR"))}, nil
}

func TestNothingHiddenPassport(t *testing.T) {
	t.Parallel()
	for _, sz := range hiddenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			var ts tokens
			c := testCommon(t, common.Deps{Passports: longPassport{&ts}})
			d := newDriver(t, New(c, NewPassport(c, "TP-AB23-CD45")))
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			frames := walk(d, "down")
			requireShown(t, sz[0], sz[1], frames, ts)
		})
	}
}

func TestNothingHiddenChecks(t *testing.T) {
	t.Parallel()
	for _, sz := range hiddenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			plan, all := longPlan()
			var ts tokens
			for _, tok := range all {
				if strings.HasPrefix(tok, "HOW") || strings.HasPrefix(tok, "CHK") {
					ts = append(ts, tok)
				}
			}
			sh := &common.CheckSheet{ID: "TP-AB23-CD45", Title: "t", Version: 3, Origin: plan.Origin, Checks: plan.Checks}
			c := testCommon(t, common.Deps{Checks: &fakeChecks{sheet: sh}})
			d := newDriver(t, New(c, NewChecks(c, "TP-AB23-CD45")))
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			requireShown(t, sz[0], sz[1], walk(d, "down", "]"), ts)
		})
	}
}

func TestNothingHiddenAsks(t *testing.T) {
	t.Parallel()
	for _, sz := range hiddenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			plan, all := longPlan()
			var ts tokens
			for _, tok := range all {
				if strings.HasPrefix(tok, "ASK") || strings.HasPrefix(tok, "WHY") || strings.HasPrefix(tok, "ACC") {
					ts = append(ts, tok)
				}
			}
			sh := &common.AskSheet{ID: "TP-AB23-CD45", Title: "t", Version: 3, ReceiptName: "r.taskpack", Asks: plan.Asks}
			d := newAsksApp(t, &fakeAsks{sheet: sh})
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			requireShown(t, sz[0], sz[1], walk(d, "down"), ts)
		})
	}
}

// The receipt's review lists every file it carries and every reason one
// cannot travel (issue 17): 40 files, long names, a refused one with a long
// reason, scrolled to the end at each size.
func TestNothingHiddenReceiptFiles(t *testing.T) {
	t.Parallel()
	for _, sz := range hiddenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			var ts tokens
			var fs []common.ReceiptFile
			for i := 1; i <= 40; i++ {
				fs = append(fs, common.ReceiptFile{Name: "figs/" + word40(ts.add(fmt.Sprintf("FILE%02d", i))), Size: int64(i)})
			}
			fs = append(fs, common.ReceiptFile{Name: ts.add("BADFILE"), Refused: []string{word40("credential") + " " + word40(ts.add("REASONEND"))}})
			f := &fakeAsks{sheet: sampleSheet(), files: map[string][]common.ReceiptFile{"figs": fs}}
			d := newAsksApp(t, f)
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			d.keys("w", "y", "enter", "f").typeText("figs").keys("enter", "g")
			requireShown(t, sz[0], sz[1], walk(d, "down"), ts)
		})
	}
}

func TestNothingHiddenHome(t *testing.T) {
	t.Parallel()
	for _, sz := range hiddenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			var ts tokens
			data := &common.HomeData{}
			for i := 1; i <= 40; i++ {
				data.Passports = append(data.Passports, common.PassportRow{ID: ts.add(fmt.Sprintf("TP-AAAA-%04d", i)), Title: "title " + ts.add(fmt.Sprintf("PTITLE%02d", i)), OpenAsks: i % 3, FailedChecks: i % 2})
			}
			for i := 1; i <= 10; i++ {
				data.Projects = append(data.Projects, common.ProjectRow{Project: ts.add(fmt.Sprintf("proj%02d", i)), Open: i})
				data.Packs = append(data.Packs, "/fake/here/"+ts.add(fmt.Sprintf("pack%02d", i))+".taskpack")
			}
			c := testCommon(t, common.Deps{Home: &fakeHome{data}})
			d := newDriver(t, New(c, NewHome(c)))
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			requireShown(t, sz[0], sz[1], walk(d, "down"), ts)
		})
	}
}

func TestNothingHiddenInbox(t *testing.T) {
	t.Parallel()
	for _, sz := range hiddenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			var ts tokens
			var as []common.Act
			for i := 1; i <= 30; i++ {
				as = append(as, common.Act{Key: fmt.Sprintf("k-%02d", i), Project: "shop", Status: "open", TermsRev: 1,
					Text:   "漢字の行動 " + word40(ts.add(fmt.Sprintf("ACT%02d", i))),
					Claims: []common.Claim{{By: "agent", Outcome: "done", Basis: "because " + ts.add(fmt.Sprintf("BASIS%02d", i))}},
					Notes:  []string{"note " + ts.add(fmt.Sprintf("NOTE%02d", i))}})
			}
			d := newInboxApp(t, &fakeInbox{acts: as})
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			requireShown(t, sz[0], sz[1], walk(d, "down"), ts)
		})
	}
}

// The batch confirmation (issue 17): thirty marked acts, one preview of
// every record, scrollable to its end at each size; and the marks' count
// says how many a filter hides.
func TestNothingHiddenInboxBatch(t *testing.T) {
	t.Parallel()
	for _, sz := range hiddenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			var ts tokens
			var as []common.Act
			for i := 1; i <= 30; i++ {
				as = append(as, common.Act{Key: ts.add(fmt.Sprintf("KEYMARK%02d", i)), Project: "shop", Status: "open", TermsRev: 1, Text: "act " + word40(fmt.Sprint(i))})
			}
			d := newInboxApp(t, &fakeInbox{acts: as})
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			for range as {
				d.keys(" ")
			}
			d.keys("d")
			frames := walk(d, "", "down") // 240 lines: more than walk's 200 cursor steps
			if !strings.Contains(ansi.Strip(strings.Join(frames, "\n")), "30 of 30") {
				t.Fatalf("the batch preview is not the whole batch:\n%s", frames[0])
			}
			requireShown(t, sz[0], sz[1], frames, ts)
		})
	}
}

// The confirmation of a 200-line how, the done screen of a landing with
// thirty next steps and ten warnings, and the ? page of every key.
func TestNothingHiddenDialogs(t *testing.T) {
	t.Parallel()
	for _, sz := range hiddenSizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			plan, all := longPlan()
			var how tokens
			for _, tok := range all {
				if strings.HasPrefix(tok, "HOW") && tok != "HOWTWO" {
					how = append(how, tok)
				}
			}
			c := testCommon(t, common.Deps{Lander: &fakeLander{plan: plan}})
			d := newDriver(t, New(c, landing.New(c, "handoff.taskpack")))
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			d.keys("tab", "r")
			requireShown(t, sz[0], sz[1], walk(d, "down"), how)

			var ts tokens
			landed := sampleLanded()
			landed.NextSteps, landed.Warnings = nil, nil
			for i := 1; i <= 30; i++ {
				landed.NextSteps = append(landed.NextSteps, "step `"+ts.add(fmt.Sprintf("DONE%02d", i))+"` "+word40(ts.add(fmt.Sprintf("DTAIL%02d", i))))
			}
			for i := 1; i <= 10; i++ {
				landed.Warnings = append(landed.Warnings, "warning "+ts.add(fmt.Sprintf("DWARN%02d", i)))
			}
			c = testCommon(t, common.Deps{Lander: &fakeLander{plan: samplePlan(), landed: landed}})
			d = newDriver(t, New(c, landing.New(c, "handoff.taskpack")))
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			for s := 0; s < landing.StepCount; s++ {
				d.keys("tab")
			}
			d.keys("enter")
			requireShown(t, sz[0], sz[1], walk(d, "down"), ts)

			// ? lists every key of the step; the page scrolls.
			c = testCommon(t, common.Deps{Lander: &fakeLander{plan: samplePlan()}})
			d = newDriver(t, New(c, landing.New(c, "handoff.taskpack")))
			d.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			d.keys("tab")
			var keys tokens
			for _, k := range helpKeys(d.app()) {
				keys = append(keys, strings.SplitN(k, " ", 2)[1])
			}
			d.keys("?")
			requireShown(t, sz[0], sz[1], walk(d, "down"), keys)
		})
	}
}
