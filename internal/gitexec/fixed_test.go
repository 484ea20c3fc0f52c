package gitexec

import (
	"slices"
	"testing"
)

// TestFixedSwitchesEveryEventOff: the fixed configuration, written out as
// data, ends with every event of hookEvents switched off, once each, in
// its order; nothing else in it names a hook.
func TestFixedSwitchesEveryEventOff(t *testing.T) {
	t.Parallel()
	var want [][2]string
	for _, ev := range hookEvents {
		want = append(want, [2]string{"hook." + ev + ".enabled", "false"})
	}
	if len(fixed) < len(want) || !slices.Equal(fixed[len(fixed)-len(want):], want) {
		t.Fatalf("fixed ends with\n%q\nwant every hook event off\n%q", fixed[max(0, len(fixed)-len(want)):], want)
	}
	for _, kv := range fixed[:len(fixed)-len(want)] {
		if len(kv[0]) > 5 && kv[0][:5] == "hook." {
			t.Errorf("%q before the events", kv)
		}
	}
}
