package landing

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

// receiptFrom is a receipt answering a1 of passport p at version v, packed
// by actor@machine, whose body claims answered_by claimed.
func receiptFrom(p string, v int, actor, machine, answer, claimed string) string {
	return `{"spec":"task-passport-bag/0.1","kind":"receipt","packed_at":"2026-09-04T10:00:00Z",
	 "origin":{"actor":"` + actor + `","machine":"` + machine + `","harness":"tp"},
	 "lineage":{"root_id":"` + p + `","from_version":1,"chain":["` + p + `@` + itoa(v) + `","TP-CCCC-CCCC@1"]},
	 "note":"","passport":{"id":"TP-CCCC-CCCC","goal":"g"},
	 "asks":[{"id":"a1","to":"peer","what":"Send the close","why":"","accept":"a CSV","status":"answered","answer":"` + answer + `",
	   "answered_by":"` + claimed + `","answered_at":"2020-01-01T00:00:00Z"}],
	 "landing_checks":[]}`
}

func askingPassport(t *testing.T, st *store.Store) string {
	t.Helper()
	return newPassport(t, st, func(v *ojson.Value) {
		v.Set("asks", mustParse(t, `[{"id":"a1","to":"peer","what":"Send the close","why":"","accept":"a CSV","status":"open","answer":null}]`))
	})
}

func mergeAt(t *testing.T, st *store.Store, obj, into string, at time.Time) (*Plan, *Merged) {
	t.Helper()
	pk := openPack(t, flatPack(t, obj))
	env := envOn("home", "maria")
	env.Now = func() time.Time { return at }
	pl, err := PlanMerge(context.Background(), pk, st, into, env)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Merge(context.Background(), pk, pl, st, Decisions{})
	if err != nil {
		t.Fatal(err)
	}
	return pl, m
}

// TestMergeAttribution (issue 18, D6): who answered is the receipt's own
// origin and when is the merge — a body naming "bob" does not make mallory
// bob; a second receipt that answers an answered ask replaces the answer,
// keeps the earlier one in answer_history and says so; merging the same
// receipt again (the near miss) changes nothing and adds no history.
func TestMergeAttribution(t *testing.T) {
	st := testStore(t)
	p := askingPassport(t, st)
	sentFrom(t, st, p, 1)
	t1 := t0.Add(2 * time.Hour)
	t2 := t0.Add(3 * time.Hour)

	// The body says bob answered; mallory packed it.
	first := receiptFrom(p, 1, "mallory", "evil-box", "close.csv", "bob@machB")
	pl, _ := mergeAt(t, st, first, "", t1)
	a := askByID(get(t, st, p), "a1")
	if a.AnsweredBy() != "mallory@evil-box" || a.AnsweredAt() != store.Timestamp(t1) {
		t.Fatalf("answered_by %q at %q, want mallory@evil-box at %s (origin and merge time)", a.AnsweredBy(), a.AnsweredAt(), store.Timestamp(t1))
	}
	if !strings.Contains(strings.Join(pl.Warnings, "\n"), "says it was answered by bob@machB") {
		t.Errorf("no warning about the body's answered_by: %q", pl.Warnings)
	}
	if a.V.Has(AnswerHistory) {
		t.Errorf("a first answer has a history: %s", ojson.Compact(a.V))
	}

	// A second receipt (another sender) answers again.
	second := receiptFrom(p, 1, "carol", "c-box", "close-v2.csv", "carol@c-box")
	pl, _ = mergeAt(t, st, second, "", t2)
	a = askByID(get(t, st, p), "a1")
	if got := answerText(a.V.Get("answer")); got != "close-v2.csv" || a.AnsweredBy() != "carol@c-box" || a.AnsweredAt() != store.Timestamp(t2) {
		t.Fatalf("after the second receipt: %s", ojson.Compact(a.V))
	}
	hist := a.V.Get(AnswerHistory).Items()
	if len(hist) != 1 || answerText(hist[0].Get("answer")) != "close.csv" || hist[0].Get("answered_by").Text() != "mallory@evil-box" || hist[0].Get("answered_at").Text() != store.Timestamp(t1) {
		t.Fatalf("answer_history %s, want the earlier answer", ojson.Compact(a.V.Get(AnswerHistory)))
	}
	if len(pl.Merge.AsksChanged) != 1 || !pl.Merge.AsksChanged[0].Replaced {
		t.Errorf("the merge report does not say the answer was replaced: %+v", pl.Merge.AsksChanged)
	}
	if !strings.Contains(strings.Join(pl.Warnings, "\n"), "kept in the ask's "+AnswerHistory) {
		t.Errorf("no warning about the replaced answer: %q", pl.Warnings)
	}

	// Near miss: the same receipt again changes nothing.
	pl, m := mergeAt(t, st, second, "", t2.Add(time.Hour))
	if m.Changed || len(pl.Merge.AsksChanged) != 0 {
		t.Fatalf("merging the same receipt again changed %+v", pl.Merge.AsksChanged)
	}
	if n := len(askByID(get(t, st, p), "a1").V.Get(AnswerHistory).Items()); n != 1 {
		t.Errorf("answer_history has %d entries after a repeat", n)
	}
}

// TestReceiptForAVersionNeverSent (issue 18, D6): the passport is at v3
// and was packed only from v1. A receipt naming @2 is refused unless --into
// names the passport, and then merged with a warning; @1 (the near miss)
// merges with no warning; a passport with no record warns only.
func TestReceiptForAVersionNeverSent(t *testing.T) {
	setup := func(t *testing.T, record bool) (*store.Store, string) {
		st := testStore(t)
		p := askingPassport(t, st)
		for i := 0; i < 2; i++ { // v3
			if _, err := st.Update(p, func(v *ojson.Value) error { return nil }); err != nil {
				t.Fatal(err)
			}
		}
		if record {
			sentFrom(t, st, p, 1)
		}
		return st, p
	}
	plan := func(t *testing.T, st *store.Store, p string, v int, into string) (*Plan, error) {
		pk := openPack(t, flatPack(t, receiptFrom(p, v, "carol", "c-box", "close.csv", "carol@c-box")))
		return PlanMerge(context.Background(), pk, st, into, envOn("home", "maria"))
	}
	t.Run("never sent, refused", func(t *testing.T) {
		st, p := setup(t, true)
		_, err := plan(t, st, p, 2, "")
		var pe *pack.Error
		if !errors.As(err, &pe) || pe.Rule != RuleNeverSent || !strings.Contains(pe.Detail, "--into "+p) || !strings.Contains(pe.Detail, "sent from version 1") {
			t.Fatalf("err = %v, want %s naming --into and the versions sent", err, RuleNeverSent)
		}
	})
	t.Run("never sent, --into names it", func(t *testing.T) {
		st, p := setup(t, true)
		pl, err := plan(t, st, p, 2, p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(pl.Warnings, "\n"), "never sent a pack from version 2") {
			t.Fatalf("no warning: %q", pl.Warnings)
		}
	})
	t.Run("sent version (near miss)", func(t *testing.T) {
		st, p := setup(t, true)
		pl, err := plan(t, st, p, 1, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range pl.Warnings {
			if strings.Contains(w, "D6") {
				t.Fatalf("unexpected warning %q", w)
			}
		}
		if a := pl.Merge.AsksChanged; len(a) != 1 || a[0].After.Status != model.AskAnswered {
			t.Fatalf("asks changed %+v", a)
		}
	})
	t.Run("no record, warned", func(t *testing.T) {
		st, p := setup(t, false)
		pl, err := plan(t, st, p, 2, "")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(pl.Warnings, "\n"), "no record of packs sent") {
			t.Fatalf("no warning: %q", pl.Warnings)
		}
	})
}

// TestPackRecordsWhatItSent: tp pack (landing.Pack) records the version,
// the kind, the packed_at and the content identity of every pack it makes,
// in either encoding, as a reader of the file finds them (the record is
// made from what was written, not read back).
func TestPackRecordsWhatItSent(t *testing.T) {
	st := testStore(t)
	p := newPassport(t, st, nil)
	lug := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(lug, []byte("luggage counts in the content identity\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, enc := range []pack.Encoding{pack.EncodingBag, pack.EncodingFlat} {
		out := t.TempDir() + "/x." + string(enc)
		rep, err := Pack(context.Background(), st, PackRequest{ID: p, Out: out, Encoding: enc, Build: BuildOptions{Actor: "maria", Machine: "home", Files: []string{lug}}})
		if err != nil {
			t.Fatal(err)
		}
		packs, ok, err := st.Sent(p)
		if err != nil || !ok {
			t.Fatalf("record %+v %v %v", packs, ok, err)
		}
		pk := openPack(t, out)
		want := contentDigest(pk.ObjectSHA256, pk.Luggage)
		po := model.PackObject{V: pk.Object}
		found := false
		for _, got := range packs {
			found = found || got.Version == rep.Version && got.ContentSHA256 == want && got.Kind == po.Kind() && got.PackedAt == po.PackedAt()
		}
		if !found {
			t.Fatalf("recorded %+v, want version %d content %s", packs, rep.Version, want)
		}
	}
}
