package pack

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Convert reads the pack at in (leniently, as landing does: D4 repairs are
// made and would show in a later conformance run of the output only if the
// writer could not make them) and writes it at out in the other encoding:
// .taskpack → .taskpack.json and back (§2, D3). An out name ending in
// .taskpack.json or .json asks for the flat form, .taskpack for the bag;
// any other name gets the encoding the input is not. The pack object and
// every luggage file's bytes are carried over unchanged; the writer's
// sealing and refusals apply as to any write.
func Convert(in, out string, opts WriteOptions) error {
	if same(in, out) {
		return &Error{File: out, Rule: RuleWrite, Detail: "the output would overwrite the input"}
	}
	p, err := Open(in, Options{})
	if err != nil {
		return err
	}
	defer p.Close()
	enc := EncodingFlat
	lower := strings.ToLower(out)
	switch {
	case strings.HasSuffix(lower, ".json"):
		enc = EncodingFlat
	case strings.HasSuffix(lower, ".taskpack"):
		enc = EncodingBag
	case p.Encoding != EncodingBag:
		enc = EncodingBag
	}
	src := Source{Object: p.Object}
	for _, l := range p.Luggage {
		name := l.Name
		src.Luggage = append(src.Luggage, LuggageSource{Name: name, Size: l.Size,
			Open: func() (io.ReadCloser, error) { return p.OpenLuggage(name) }})
	}
	if err := Write(out, src, enc, opts); err != nil {
		if pe, ok := err.(*Error); ok && pe.File == "" {
			pe.File = out
		}
		return fmt.Errorf("converting %s: %w", in, err)
	}
	return nil
}

func same(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	if err1 == nil && err2 == nil {
		return os.SameFile(ia, ib)
	}
	x, _ := filepath.Abs(a)
	y, _ := filepath.Abs(b)
	return x == y
}
