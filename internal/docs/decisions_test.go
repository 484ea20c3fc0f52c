// Package docs holds the tests that keep the repository's own notes and its
// code in step: every decision number cited in Go code or in a testscript has
// a section in docs/decisions.md.
package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// root is the repository root, two levels above this package.
const root = "../.."

// citation matches a decision number as cited in code and messages ("D5",
// "D8 and D16"); the word boundaries keep hex and identifiers out.
var citation = regexp.MustCompile(`\bD([0-9]{1,3})\b`)

// heading matches a decision's section heading in docs/decisions.md.
var heading = regexp.MustCompile(`(?m)^## D([0-9]{1,3}) `)

// citations returns the decision numbers cited in text.
func citations(text string) []int {
	var out []int
	for _, m := range citation.FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		out = append(out, n)
	}
	return out
}

// decisions returns the decision numbers docs/decisions.md has a section for.
func decisions(t *testing.T) map[int]bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "docs", "decisions.md"))
	if err != nil {
		t.Fatalf("docs/decisions.md: %v", err)
	}
	have := map[int]bool{}
	for _, m := range heading.FindAllStringSubmatch(string(b), -1) {
		n, _ := strconv.Atoi(m[1])
		if have[n] {
			t.Errorf("docs/decisions.md: two sections for D%d", n)
		}
		have[n] = true
	}
	return have
}

// sources calls fn for every Go file, testscript, Markdown document and
// script in the repository: a decision is cited from prose as often as from
// code.
func sources(t *testing.T, fn func(path, text string)) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && strings.HasPrefix(name, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".txtar", ".md", ".sh", ".py", ".yaml", ".json":
		default:
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fn(path, string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestCitationsExtract(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []int
	}{
		{"// sealed as D8 and D16 read it", []int{8, 16}},
		{"(D1)", []int{1}},
		{"0xD1 ADDR TD5 D5x", nil},
		{`"§4.4.1 (D6)"`, []int{6}},
	} {
		got := citations(tc.text)
		if len(got) != len(tc.want) {
			t.Errorf("citations(%q) = %v, want %v", tc.text, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("citations(%q) = %v, want %v", tc.text, got, tc.want)
			}
		}
	}
}

// TestEveryCitedDecisionHasASection fails when code, a test or a testscript
// cites a decision number that docs/decisions.md does not define.
func TestEveryCitedDecisionHasASection(t *testing.T) {
	have := decisions(t)
	for n := 1; n <= 20; n++ {
		if !have[n] {
			t.Errorf("docs/decisions.md has no section \"## D%d …\"", n)
		}
	}
	cited := map[int][]string{}
	total := 0
	sources(t, func(path, text string) {
		for _, n := range citations(text) {
			total++
			rel, _ := filepath.Rel(root, path)
			cited[n] = append(cited[n], rel)
		}
	})
	if total == 0 {
		t.Fatal("found no decision citations at all: the walk is broken")
	}
	var missing []int
	for n := range cited {
		if !have[n] {
			missing = append(missing, n)
		}
	}
	sort.Ints(missing)
	for _, n := range missing {
		t.Errorf("D%d is cited (first in %s) but docs/decisions.md has no section for it", n, cited[n][0])
	}
}

// TestNoCitationOutsideTheRepository fails when a file cites the team's
// design notes by file name: they live outside this repository, so a reader
// of a clone cannot follow the reference. Decisions are cited by number
// (docs/decisions.md), the layout and the jobs by docs/architecture.md.
func TestNoCitationOutsideTheRepository(t *testing.T) {
	outside := []string{"DESIGN" + ".md", "STYLE" + ".md", "../" + "shared/"}
	n := 0
	sources(t, func(path, text string) {
		n++
		for _, name := range outside {
			if i := strings.Index(text, name); i >= 0 {
				rel, _ := filepath.Rel(root, path)
				line := 1 + strings.Count(text[:i], "\n")
				t.Errorf("%s:%d names %s, which is not in this repository", rel, line, name)
			}
		}
	})
	if n < 100 {
		t.Fatalf("walked only %d files: the walk is broken", n)
	}
}
