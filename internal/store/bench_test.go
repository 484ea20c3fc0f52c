package store

import (
	"fmt"
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
