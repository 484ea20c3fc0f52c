package store

import (
	"strings"
	"testing"
)

// d14Alphabet is D14's alphabet, written out here rather than taken
// from IDAlphabet, so a change to the constant cannot pass its own test.
const d14Alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// TestAuditMintedIDsUseD14Alphabet: D14 — passport ids are TP-XXXX-XXXX over
// 23456789ABCDEFGHJKMNPQRSTUVWXYZ (no 0, 1, I, L, O: they read alike).
func TestAuditMintedIDsUseD14Alphabet(t *testing.T) {
	t.Parallel()
	if IDAlphabet != d14Alphabet {
		t.Errorf("IDAlphabet = %q, D14 says %q", IDAlphabet, d14Alphabet)
	}
	for i := 0; i < 5000; i++ {
		id := MintID()
		if len(id) != 12 || !strings.HasPrefix(id, "TP-") || id[7] != '-' {
			t.Fatalf("minted %q, want TP-XXXX-XXXX", id)
		}
		for _, c := range id[3:7] + id[8:] {
			if !strings.ContainsRune(d14Alphabet, c) {
				t.Fatalf("minted %q: %q is outside the D14 alphabet", id, c)
			}
		}
	}
}
