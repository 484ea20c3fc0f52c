package pack

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/tp-dev/tp/pack/scan"
)

// Convert reads the pack at in (leniently, as landing does: the repairs of
// D4 are made, and ConvertRepairs returns them so the caller can say what
// was repaired) and writes it at out in the other encoding:
// .taskpack → .taskpack.json and back (§2, D3). An out name ending in
// .taskpack.json or .json asks for the flat form, .taskpack for the bag;
// any other name gets the encoding the input is not. The pack object and
// every luggage file's bytes are carried over unchanged; the writer's
// sealing and refusals apply as to any write.
func Convert(in, out string, opts WriteOptions) error {
	_, err := ConvertRepairs(in, out, opts)
	return err
}

// ConvertRepairs is Convert, returning the repairs the lenient read made
// (each one is in the output: a machine-scoped fact sealed, a missing
// attachment sha256 computed, a BOM dropped...) and, with rule
// RepairDropped, the flat file's top-level members beyond §2.2's that the
// output does not carry. They are returned only when the output was written.
func ConvertRepairs(in, out string, opts WriteOptions) ([]Repair, error) {
	if same(in, out) {
		return nil, &Error{File: out, Rule: RuleWrite, Detail: "the output would overwrite the input"}
	}
	p, err := Open(in, Options{Limits: opts.ReadLimits})
	if err != nil {
		return nil, err
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
	src := Source{Object: p.Object, Tags: p.Tags}
	for _, l := range p.Luggage {
		name := l.Name
		src.Luggage = append(src.Luggage, LuggageSource{Name: name, Size: l.Size,
			Open: func() (io.ReadCloser, error) { return p.OpenLuggage(name) }})
	}
	res, err := WriteReport(out, src, enc, opts)
	if err != nil {
		if pe, ok := err.(*Error); ok && pe.File == "" {
			pe.File = out
		}
		return nil, fmt.Errorf("converting %s: %w", in, err)
	}
	repairs := p.Repairs
	if res.SignatureDropped != "" {
		repairs = append(repairs, Repair{Rule: RepairSignatureDropped, Where: TagSignature,
			Detail: "the signature was not carried over: " + res.SignatureDropped})
	}
	if p.Encoding == EncodingBag {
		for _, name := range p.l.unknownTags() {
			repairs = append(repairs, Repair{Rule: RepairTagDropped, Where: name,
				Detail: "a tag file that is neither BagIt's nor an extension tp carries (D3); the pack written has no place for it, so it was not carried over"})
		}
	}
	for _, k := range p.l.dropped {
		why := "a top-level member the flat form does not have (§2.2); the pack written has no place for it, so it was not carried over"
		if scan.IsInstructionField(k) {
			why = "an instruction field outside the pack object (§4.5, D13); not carried over"
		}
		repairs = append(repairs, Repair{Rule: RepairDropped, Where: k, Detail: why})
	}
	return repairs, nil
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
