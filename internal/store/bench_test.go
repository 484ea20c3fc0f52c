package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
)

// benchStore fills a store with n passports of realistic size (~4 KiB).
func benchStore(b *testing.B, n int) *Store {
	b.Helper()
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		v := NewState(fmt.Sprintf("TP-BNCH-%04d", i), "title", "goal", CreateOptions{CurrentState: strings.Repeat("state ", 500)}, s.now())
		v.Set("asks", ojson.NewArray(parseB(`{"id":"a1","status":"open","what":"w","accept":"a"}`)))
		if _, err := s.Save(v, 0); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

func parseB(s string) *ojson.Value { v, _ := ojson.ParseStrict([]byte(s)); return v }

func BenchmarkList1000(b *testing.B) {
	s := benchStore(b, 1000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e, _, err := s.List()
		if err != nil || len(e) != 1000 {
			b.Fatal(err)
		}
	}
}

func BenchmarkGet(b *testing.B) {
	s := benchStore(b, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Get("TP-BNCH-0000"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpdate is a full locked read-modify-write with fsyncs.
func BenchmarkUpdate(b *testing.B) {
	s := benchStore(b, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Update("TP-BNCH-0000", func(v *ojson.Value) error {
			return AnswerAsk(v, "a1", "yes", "a@b", s.now())
		}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLandedFrom1000 is a dry-run land's look-up of what was landed
// before, over a store of 1,000 passports, warm: what a long-lived tp mcp
// pays per call (issue 16).
func BenchmarkLandedFrom1000(b *testing.B) {
	s := benchStore(b, 1000)
	s.landed.clock = func() time.Time { return time.Now().Add(time.Hour) } // nothing racily clean
	if _, _, err := s.LandedFrom(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := s.LandedFrom(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLandedFromAfterSave1000 is the look-up after a passport was
// saved by rename (as every round of a session that checkpoints between
// dry runs does), over 1,000 passports: an unwatched store looks at every
// file again (reading only the one saved), a watched one (Store.Watch)
// reads the one the kernel names.
func BenchmarkLandedFromAfterSave1000(b *testing.B) {
	for _, watch := range []bool{false, true} {
		b.Run(map[bool]string{false: "unwatched", true: "watched"}[watch], func(b *testing.B) {
			s := benchStore(b, 1000)
			s.landed.clock = func() time.Time { return time.Now().Add(time.Hour) } // nothing racily clean
			if watch && !s.Watch() {
				b.Skip("the folder cannot be watched here")
			}
			if _, _, err := s.LandedFrom(); err != nil {
				b.Fatal(err)
			}
			tmp, p := filepath.Join(s.dir, ".tmp-bench"), s.Path("TP-BNCH-0000")
			body, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := os.WriteFile(tmp, body, 0o600); err != nil {
					b.Fatal(err)
				}
				if err := os.Rename(tmp, p); err != nil {
					b.Fatal(err)
				}
				if _, _, err := s.LandedFrom(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
