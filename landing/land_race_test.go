package landing

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/tp-dev/tp/pack"
)

// Two landings of the same file at once, each planned before the other
// landed: exactly one lands; the other is refused as already landed (the
// check is made again under the store's landing lock).
func TestConcurrentLandingsOfOneFile(t *testing.T) {
	st := testStore(t)
	path := flatPack(t, handObj)
	const n = 4
	plans := make([]*Plan, n)
	packs := make([]*pack.Pack, n)
	for i := range plans {
		packs[i] = openPack(t, path)
		pl, err := PlanLanding(context.Background(), packs[i], st, envOn("x", "y"))
		if err != nil {
			t.Fatal(err)
		}
		if pl.AlreadyLandedAs != "" {
			t.Fatal("planned as landed before any landing")
		}
		plans[i] = pl
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range plans {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, errs[i] = Land(context.Background(), packs[i], plans[i], st, Decisions{})
		}(i)
	}
	wg.Wait()
	landed := 0
	for _, err := range errs {
		var pe *pack.Error
		switch {
		case err == nil:
			landed++
		case errors.As(err, &pe) && pe.Rule == RuleAlreadyLanded:
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if landed != 1 {
		t.Fatalf("%d landings of one file succeeded, want exactly 1", landed)
	}
	list, _, _ := st.List()
	if len(list) != 1 {
		t.Errorf("store holds %d passports, want 1", len(list))
	}
}
