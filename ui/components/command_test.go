package components

import (
	"strings"
	"testing"
)

// A command line cut to fit the box joins back to exactly that line: no
// space is dropped at a cut.
func TestCutRowsKeepsEveryByte(t *testing.T) {
	for _, ln := range []string{
		strings.Repeat("echo step; ", 20) + "echo LAST",
		"a" + strings.Repeat(" ", 30) + "b  c   d" + strings.Repeat("x", 50),
		strings.Repeat("这是数据 ", 15),
		"short",
	} {
		for _, w := range []int{8, 13, 40} {
			rows := CutRows(ln, w)
			if got := strings.Join(rows, ""); got != ln {
				t.Fatalf("w=%d: rows join to %q, want %q", w, got, ln)
			}
			for _, r := range rows {
				if Width(r) > w {
					t.Fatalf("w=%d: row %q is %d cells", w, r, Width(r))
				}
			}
		}
	}
}
