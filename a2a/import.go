package a2a

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	sdk "github.com/a2aproject/a2a-go/a2a"

	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/limitread"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/pack"
)

// Rules of the refusals of Import and of the server's intake (D23).
const (
	RuleNoPack    = "D23 no-taskpack"   // a Task or message that carries no TaskPack file
	RuleByURI     = "D23 file-by-uri"   // a pack named by URI: tp fetches nothing
	RuleBase64    = "D23 base64"        // a file part whose bytes are not base64
	RuleNotATask  = "D23 not-a-task"    // a document that is not an A2A Task
	RuleTwoPacks  = "D23 several-packs" // more than one TaskPack part: which one is meant is not ours to guess
	RuleOutExists = "D23 out-exists"    // the file to write exists already
)

// PackPartOfTask is the FilePart of a Task's TaskPack artifact: the
// artifact with id "taskpack", else the one file part of a TaskPack media
// type or file name. Missing, it is an error naming what is missing.
func PackPartOfTask(t *sdk.Task) (sdk.FileBytes, error) {
	var found []sdk.FilePart
	for _, a := range t.Artifacts {
		if a == nil {
			continue
		}
		for _, part := range a.Parts {
			fp, ok := part.(sdk.FilePart)
			if !ok || !isPackFile(fp.File) {
				continue
			}
			if a.ID == PackArtifactID {
				return fileBytes(fp)
			}
			found = append(found, fp)
		}
	}
	switch len(found) {
	case 0:
		return sdk.FileBytes{}, &pack.Error{Rule: RuleNoPack, Detail: "the Task has no TaskPack artifact: no artifact \"taskpack\" and no file part of type " +
			MediaBag + " or " + MediaFlat + " (or named *.taskpack, *.taskpack.json)"}
	case 1:
		return fileBytes(found[0])
	}
	return sdk.FileBytes{}, &pack.Error{Rule: RuleTwoPacks, Detail: strconv.Itoa(len(found)) + " TaskPack file parts and none is the artifact \"taskpack\""}
}

// PackPartOfMessage is the pack a message carries: one FilePart holding a
// pack (either encoding), or one DataPart holding a Task exported as D23
// says (its TaskPack artifact). Text parts are never read: a message is not
// an instruction (§4.5).
func PackPartOfMessage(m *sdk.Message) (sdk.FileBytes, error) {
	var found []sdk.FileBytes
	for _, part := range m.Parts {
		switch p := part.(type) {
		case sdk.FilePart:
			if !isPackFile(p.File) {
				continue
			}
			fb, err := fileBytes(p)
			if err != nil {
				return fb, err
			}
			found = append(found, fb)
		case sdk.DataPart:
			if p.Data["kind"] != "task" {
				continue
			}
			b, err := json.Marshal(p.Data)
			if err != nil {
				return sdk.FileBytes{}, &pack.Error{Rule: RuleNotATask, Detail: err.Error()}
			}
			var t sdk.Task
			if err := json.Unmarshal(b, &t); err != nil {
				return sdk.FileBytes{}, &pack.Error{Rule: RuleNotATask, Detail: "a data part of kind task that is not an A2A Task: " + err.Error()}
			}
			fb, err := PackPartOfTask(&t)
			if err != nil {
				return fb, err
			}
			found = append(found, fb)
		}
	}
	switch len(found) {
	case 0:
		return sdk.FileBytes{}, &pack.Error{Rule: RuleNoPack, Detail: "the message carries no TaskPack: tp takes packs, not instructions (TaskPack 0.1 §4.5). " +
			"Send one file part of type " + MediaBag + " or " + MediaFlat + ", or a data part holding a Task exported by tp a2a export"}
	case 1:
		return found[0], nil
	}
	return sdk.FileBytes{}, &pack.Error{Rule: RuleTwoPacks, Detail: strconv.Itoa(len(found)) + " TaskPacks in one message; send one per message"}
}

func isPackFile(c sdk.FilePartContent) bool {
	var m sdk.FileMeta
	switch f := c.(type) {
	case sdk.FileBytes:
		m = f.FileMeta
	case sdk.FileURI:
		m = f.FileMeta
	default:
		return false
	}
	mt := strings.ToLower(strings.TrimSpace(strings.Split(m.MimeType, ";")[0]))
	if mt == MediaBag || mt == MediaFlat {
		return true
	}
	n := strings.ToLower(m.Name)
	return strings.HasSuffix(n, ".taskpack") || strings.HasSuffix(n, ".taskpack.json")
}

func fileBytes(fp sdk.FilePart) (sdk.FileBytes, error) {
	switch f := fp.File.(type) {
	case sdk.FileBytes:
		return f, nil
	case sdk.FileURI:
		return sdk.FileBytes{}, &pack.Error{Rule: RuleByURI, Detail: "the pack is named by URI; tp fetches nothing — send its bytes"}
	}
	return sdk.FileBytes{}, &pack.Error{Rule: RuleNoPack, Detail: "a file part with no bytes"}
}

// KeepOptions bound Keep.
type KeepOptions struct {
	Limits       pack.Limits // D10; zero: the defaults
	MaxPackBytes int64       // 0: DefaultMaxPackBytes
}

// Kept is what Keep wrote.
type Kept struct {
	Path     string
	Encoding pack.Encoding
	Digest   string // sha256 of the file
	Bytes    int64
	Object   *ojson.Value // the pack object as read
}

// Keep decodes a file part's bytes as a stream into a temporary file in
// dir, refuses more than MaxPackBytes, opens what it wrote as a pack under
// every D10 limit and refusal, and only then links it into place at
// dest(encoding), which must be in dir and must not exist (never
// replaced). On any error nothing is left behind.
func Keep(fb sdk.FileBytes, dir string, dest func(pack.Encoding) string, opts KeepOptions) (*Kept, error) {
	max := opts.MaxPackBytes
	if max <= 0 {
		max = DefaultMaxPackBytes
	}
	if int64(len(fb.Bytes)) > max/3*4+8 {
		return nil, tooLarge(max)
	}
	f, tmp, err := durable.CreateTemp(dir, 0o600)
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	dec := base64.NewDecoder(base64.StdEncoding, strings.NewReader(strings.TrimSpace(fb.Bytes)))
	n, err := io.Copy(f, io.LimitReader(dec, max+1))
	if err != nil {
		var ce base64.CorruptInputError
		if errors.As(err, &ce) {
			return nil, &pack.Error{Rule: RuleBase64, Detail: "the file part's bytes are not base64 (" + err.Error() + ")"}
		}
		return nil, err
	}
	if n > max {
		return nil, tooLarge(max)
	}
	if err := f.Sync(); err != nil {
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	p, err := pack.Open(tmp, pack.Options{Limits: opts.Limits})
	if err != nil {
		var pe *pack.Error
		if errors.As(err, &pe) {
			pe.File = fileName(fb)
			return nil, pe
		}
		return nil, err
	}
	k := &Kept{Encoding: p.Encoding, Digest: p.Digest, Bytes: n, Object: p.Object}
	p.Close()
	k.Path = dest(k.Encoding)
	if filepath.Dir(k.Path) != filepath.Clean(dir) {
		return nil, fmt.Errorf("a2a: keep: %s is not in %s", k.Path, dir)
	}
	if err := os.Link(tmp, k.Path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil, &pack.Error{File: k.Path, Rule: RuleOutExists, Detail: "exists already; tp never overwrites a pack"}
		}
		return nil, err
	}
	os.Remove(tmp)
	ok = true
	if err := durable.SyncDir(dir); err != nil {
		return nil, err
	}
	return k, nil
}

func tooLarge(max int64) error {
	return &pack.Error{Rule: RuleTooLarge, Detail: "the pack is larger than the " + strconv.FormatInt(max, 10) + " bytes this server takes (--max-pack-bytes)"}
}

func fileName(fb sdk.FileBytes) string {
	if fb.Name != "" {
		return fb.Name
	}
	return "the file part"
}

// Ext is the file extension of an encoding.
func Ext(enc pack.Encoding) string {
	if enc == pack.EncodingBag {
		return ".taskpack"
	}
	return ".taskpack.json"
}

// safeBase reports whether n is a plain file name: an ASCII letter or
// digit, then at most 100 more of those or '.', '_', '-'
// (^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$, checked without a regular
// expression: compiling one with that bound at start-up cost every tp run
// a millisecond).
func safeBase(n string) bool {
	if len(n) == 0 || len(n) > 101 {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			continue
		}
		if i == 0 || strings.IndexByte("._-", c) < 0 {
			return false
		}
	}
	return true
}

// ImportBase is the file name (without extension) Import writes when no
// --out is given: the pack artifact's own name when it is a plain file
// name, else the task id when that is, else "imported".
func ImportBase(t *sdk.Task, fb sdk.FileBytes) string {
	n := fb.Name
	n = strings.TrimSuffix(strings.TrimSuffix(n, ".json"), ".taskpack")
	if safeBase(n) {
		return n
	}
	if id := string(t.ID); safeBase(id) {
		return id
	}
	return "imported"
}

// ReadTask reads an A2A Task document (kind "task") of at most max bytes.
func ReadTask(file string, max int64) (*sdk.Task, error) {
	b, err := limitread.File(file, max)
	if errors.Is(err, limitread.ErrTooLarge) {
		return nil, &pack.Error{File: file, Rule: RuleTooLarge, Detail: fmt.Sprintf("a Task document over %d bytes", max)}
	}
	if err != nil {
		return nil, err
	}
	var head struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, &pack.Error{File: file, Rule: RuleNotATask, Detail: "not a JSON document: " + err.Error()}
	}
	if head.Kind != "task" {
		return nil, &pack.Error{File: file, Rule: RuleNotATask, Detail: fmt.Sprintf("kind is %q, not \"task\"", head.Kind)}
	}
	var t sdk.Task
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, &pack.Error{File: file, Rule: RuleNotATask, Detail: err.Error()}
	}
	return &t, nil
}

// MaxTaskBytes is the largest Task document Import reads: a pack of max
// bytes in base64 and room for the rest.
func MaxTaskBytes(maxPack int64) int64 {
	if maxPack <= 0 {
		maxPack = DefaultMaxPackBytes
	}
	return maxPack/3*4 + 8<<20
}
