package acts

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// raiseDoc is a state document of n lines, every third an owner line the
// registrar has never seen: a first sync raises and stamps about n/3 acts.
func raiseDoc(n int) []byte {
	var b strings.Builder
	b.WriteString("# Project\n\n## Tasks\n\n")
	for k := 4; k < n; k++ {
		switch k % 3 {
		case 0:
			fmt.Fprintf(&b, "- [ ] [owner] Pay invoice number %d for the shed repairs\n", k)
		case 1:
			fmt.Fprintf(&b, "- [ ] [agent] Draft note %d\n", k)
		default:
			fmt.Fprintf(&b, "Some context line %d\n", k)
		}
	}
	return []byte(b.String())
}

// BenchmarkSyncRaise is the issue-8 case: one sync of a 10,000-line
// document that raises 3,332 new acts (records written as one batch, the
// document written once); and ten times that, to show it scales linearly.
func BenchmarkSyncRaise(b *testing.B) {
	prof, err := ProfileByName("en", nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{10_000, 100_000} {
		doc := raiseDoc(n)
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			if n > 10_000 && testing.Short() {
				b.Skip("-short")
			}
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				dir := b.TempDir()
				path := filepath.Join(dir, "STATE.md")
				if err := os.WriteFile(path, doc, 0o644); err != nil {
					b.Fatal(err)
				}
				l := OpenLog(filepath.Join(dir, "acts"))
				b.StartTimer()
				rep, err := Sync(context.Background(), l, SyncRequest{Document: path, Project: "bench", Profile: prof})
				if err != nil || rep.Stamped == 0 {
					b.Fatalf("%v %+v", err, rep)
				}
			}
		})
	}
}
