package judge

import (
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
	"github.com/tp-dev/tp/pack"
)

// Luggage that cannot land as files — "a" beside "a/b", or a name too long
// for a file system — passed conformance and --dry-run, then failed to
// land. The reader refuses it, so the judge (C1) and landing agree (issue
// 11, D10). Names within the limits still pass.
func TestLuggageNamesJudgeAndLandingAgree(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("n", pack.MaxSegmentBytes+1)
	deep := strings.Repeat(strings.Repeat("d", 200)+"/", 6) + "f"
	for _, c := range []struct {
		name  string
		files []string
		rule  string
	}{
		{"a file and a folder of the same name", []string{"a", "a/b"}, pack.RulePathConflict},
		{"the same after case folding", []string{"A", "a/b"}, pack.RulePathConflict},
		{"deeper", []string{"x/y/z", "x/y"}, pack.RulePathConflict},
		{"a 5,000-byte name", []string{strings.Repeat("a/", 2499) + "b"}, pack.RulePathLength},
		{"a 256-byte segment", []string{"ok/" + long}, pack.RulePathLength},
		{"a name past 1,024 bytes", []string{deep}, pack.RulePathLength},
		{"fine", []string{"a/b", "a/c", "ab", strings.Repeat("s", pack.MaxSegmentBytes)}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var lug []file
			var atts []*ojson.Value
			for _, n := range c.files {
				lug = append(lug, file{Name: n, Data: []byte("x")})
				atts = append(atts, packtest.Att(n, []byte("x")))
			}
			for _, path := range []string{
				packtest.WriteTemp(t, "n.taskpack", packtest.RawBag(t, ojson.Canonical(packtest.RefObject(t)), lug, nil)),
				packtest.WriteTemp(t, "n.taskpack.json", packtest.RawFlat(t, packtest.RefObject(t), atts...)),
			} {
				r, err := Conformance(path, pack.Options{})
				if err != nil {
					t.Fatal(err)
				}
				p, oerr := pack.Open(path, pack.Options{})
				if oerr == nil {
					p.Close()
				}
				if c.rule == "" {
					if oerr != nil || !r.Conformant {
						t.Fatalf("%s: open %v, conformant %v", path, oerr, r.Conformant)
					}
					continue
				}
				wantRule(t, oerr, c.rule)
				if c1 := r.Checks[1]; r.Conformant || c1.Pass || !strings.Contains(c1.Reason, c.rule) {
					t.Fatalf("%s: judged %+v", path, r.Checks[1])
				}
			}
		})
	}
}
