package acts

import (
	"strings"
	"testing"
)

// TestAuditProfileConstraints: §5.1 — a profile whose heading is not a
// level-2 ATX heading, or whose placeholder begins with "- [", is refused;
// the same profile with those two fixed is accepted.
func TestAuditProfileConstraints(t *testing.T) {
	t.Parallel()
	var en ProfileDef
	for _, d := range ProfileDefs() {
		if d.Name == "en" {
			en = d
		}
	}
	if _, err := en.Instantiate(nil); err != nil {
		t.Fatalf("the en profile itself: %v", err)
	}
	for _, c := range []struct {
		name string
		edit func(d *ProfileDef)
		want string
	}{
		{"level-1 heading", func(d *ProfileDef) { d.Heading = "# Tasks" }, "level-2"},
		{"level-3 heading", func(d *ProfileDef) { d.Heading = "### Tasks" }, "level-2"},
		{"not a heading", func(d *ProfileDef) { d.Heading = "Tasks" }, "level-2"},
		{"placeholder is a checkbox", func(d *ProfileDef) { d.Placeholder = "- [ ] nothing" }, "placeholder"},
		{"placeholder is a bracket item", func(d *ProfileDef) { d.Placeholder = "- [none]" }, "placeholder"},
	} {
		d := en
		c.edit(&d)
		if _, err := d.Instantiate(nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Instantiate = %v, want an error naming %q (§5.1)", c.name, err, c.want)
		}
	}
}
