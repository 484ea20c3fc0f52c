package pack

import (
	"io"

	"github.com/tp-dev/tp/internal/ojson"
)

// Encoding is one of the two encodings of §2, or the retired flat shape that
// is read but never written (§8).
type Encoding string

const (
	EncodingBag  Encoding = "taskpack"      // ZIP holding a BagIt bag (§2.1)
	EncodingFlat Encoding = "taskpack.json" // one JSON object (§2.2)
	EncodingTPX  Encoding = "tpx/0.1"       // retired; read only
)

// Luggage is one file a pack carries, named relative to data/files/ with
// forward slashes.
type Luggage struct {
	Name   string `json:"name"`
	Size   int64  `json:"bytes"`
	SHA256 string `json:"sha256"` // lowercase hex; "" when a flat attachment declared none
}

// Repair is something a lenient read had to overlook or fix. Judging treats
// every repair as a C0 failure (D4); landing lists each one as a warning.
type Repair struct {
	Rule   string `json:"rule"`   // short rule id, e.g. "seal", "bom", "attachment-sha256"
	Where  string `json:"where"`  // file, entry or JSON path
	Detail string `json:"detail"` // one line for a person
}

// LuggageSource is one file to put in a pack: its name inside data/files/
// and a way to stream its bytes (opened once per pass; the writer may read it
// twice, e.g. to scan for credentials and then to write).
type LuggageSource struct {
	Name string
	Size int64
	Open func() (io.ReadCloser, error)
}

// Source is everything a writer needs: the pack object, the luggage and
// the extension tag files (D3).
type Source struct {
	Object  *ojson.Value
	Luggage []LuggageSource
	// Tags are extension tag files by bag name (ExtensionTags; the pack
	// signature is one): the bag writes each as a tag file listed in
	// tagmanifest-sha256.txt, the flat writer as its top-level member.
	// A name not in ExtensionTags, or bytes that are not UTF-8, are refused.
	Tags map[string][]byte
}
