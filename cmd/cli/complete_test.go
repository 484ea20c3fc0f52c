package cli

import "testing"

// TestCandidate: a completion candidate is handed to a shell, so a word
// that is not plain is left out, and a description is one safe short line.
func TestCandidate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ word, desc, want string }{
		{"TP-AAAA-AAAA", "Deck", "TP-AAAA-AAAA\tDeck"},
		{"TP-AAAA-AAAA", "", "TP-AAAA-AAAA"},
		{"task-demo-c3d8af57d4", "two\nlines\tand  tabs", "task-demo-c3d8af57d4\ttwo\\nlines\\tand tabs"},
		{"TP-AAAA-AAAA", "\x1b]52;c;aGk=\x07", "TP-AAAA-AAAA\t\\x1b]52;c;aGk=\\x07"},
		{"$(reboot)", "x", ""},
		{"a b", "x", ""},
		{"key;rm", "x", ""},
		{"\x1b[31m", "x", ""},
		{"", "x", ""},
	} {
		if got := candidate(tc.word, tc.desc); got != tc.want {
			t.Errorf("candidate(%q, %q) = %q, want %q", tc.word, tc.desc, got, tc.want)
		}
	}
}
