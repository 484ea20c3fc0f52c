package plural

import "testing"

func TestN(t *testing.T) {
	for _, tc := range []struct {
		n    int
		one  string
		many []string
		want string
	}{
		{0, "file", nil, "0 files"},
		{1, "file", nil, "1 file"},
		{2, "file", nil, "2 files"},
		{-1, "file", nil, "-1 files"},
		{1, "luggage file", nil, "1 luggage file"},
		{3, "luggage file", nil, "3 luggage files"},
		{1, "entry", []string{"entries"}, "1 entry"},
		{0, "entry", []string{"entries"}, "0 entries"},
		{2, "entry", []string{"entries"}, "2 entries"},
		{1, "required check is", []string{"required checks are"}, "1 required check is"},
		{4, "required check is", []string{"required checks are"}, "4 required checks are"},
		{12, "ask", nil, "12 asks"},
	} {
		if got := N(tc.n, tc.one, tc.many...); got != tc.want {
			t.Errorf("N(%d, %q, %q) = %q, want %q", tc.n, tc.one, tc.many, got, tc.want)
		}
	}
}

func TestWord(t *testing.T) {
	for _, tc := range []struct {
		n    int
		one  string
		many []string
		want string
	}{
		{1, "check", nil, "check"},
		{11, "check", nil, "checks"},
		{0, "repair", nil, "repairs"},
		{1, "entry", []string{"entries"}, "entry"},
		{5, "entry", []string{"entries"}, "entries"},
	} {
		if got := Word(tc.n, tc.one, tc.many...); got != tc.want {
			t.Errorf("Word(%d, %q, %q) = %q, want %q", tc.n, tc.one, tc.many, got, tc.want)
		}
	}
}

func TestNInt64(t *testing.T) {
	if got := N(int64(1), "byte"); got != "1 byte" {
		t.Errorf("N(int64(1)) = %q", got)
	}
	if got := N(int64(5_000_000_000), "byte"); got != "5000000000 bytes" {
		t.Errorf("N(int64(5e9)) = %q", got)
	}
}
