package common

import "testing"

// TestFactWhere: a sealed fact whose pack names no machine reads
// "unknown" on every screen, never an empty "verified_on ".
func TestFactWhere(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ on, want string }{{"", "unknown"}, {"laptop", "laptop"}} {
		if got := (Fact{Sealed: true, VerifiedOn: tc.on}).Where(); got != tc.want {
			t.Errorf("Where() of verified_on %q = %q, want %q", tc.on, got, tc.want)
		}
	}
}
