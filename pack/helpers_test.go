package pack

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
)

// file is one ZIP entry (or one piece of luggage): name and bytes.
type file = packtest.File

// srcOf makes a Source from in-memory luggage.
func srcOf(obj *ojson.Value, luggage ...file) Source {
	s := Source{Object: obj}
	for _, l := range luggage {
		data := l.Data
		s.Luggage = append(s.Luggage, LuggageSource{Name: l.Name, Size: int64(len(data)),
			Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }})
	}
	return s
}

// wantRule asserts err is (or wraps) an *Error with rule.
func wantRule(t testing.TB, err error, rule string) *Error {
	t.Helper()
	if err == nil {
		t.Fatalf("want an error with rule %q, got none", rule)
	}
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("want *Error, got %T: %v", err, err)
	}
	var all []string
	var re *RefusalError
	if errors.As(err, &re) {
		for _, it := range re.Items {
			if it.Rule == rule {
				return it
			}
			all = append(all, it.Rule)
		}
		t.Fatalf("want rule %q among %v: %v", rule, all, err)
	}
	if pe.Rule != rule {
		t.Fatalf("want rule %q, got %q: %v", rule, pe.Rule, err)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Fatalf("error is not one line: %q", err.Error())
	}
	return pe
}
