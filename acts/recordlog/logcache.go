package recordlog

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"

	"github.com/tp-dev/tp/acts"
	"github.com/tp-dev/tp/internal/durable"
)

// The validation cache lets Load skip the JSON Schema pass for record files
// whose exact bytes already passed the exact embedded schemas. It lives
// outside the log (under the user's cache dir), so the log stays what D9
// says, and losing it only costs time. One file per records folder: a header
// naming the schema set, then one hex digest per line.

type digest [16]byte

func digestOf(b []byte) digest {
	s := sha256.Sum256(b)
	var d digest
	copy(d[:], s[:])
	return d
}

type validCache struct {
	set map[digest]struct{}
}

func (c *validCache) has(d digest) bool {
	if c == nil {
		return false
	}
	_, ok := c.set[d]
	return ok
}

var (
	schemaSetOnce sync.Once
	schemaSetID   string
)

// schemaSetDigest names the embedded schemas, so a binary with other
// schemas never trusts this one's cache.
func schemaSetDigest() string {
	schemaSetOnce.Do(func() {
		h := sha256.New()
		entries, _ := acts.SchemaFS.ReadDir("schemas")
		for _, e := range entries {
			b, _ := acts.SchemaFS.ReadFile("schemas/" + e.Name())
			h.Write([]byte(e.Name()))
			h.Write([]byte{0})
			h.Write(b)
		}
		schemaSetID = hex.EncodeToString(h.Sum(nil)[:16])
	})
	return schemaSetID
}

func (l *Log) cachePath(recordsDir string) string {
	if l.CacheDir == "" {
		return ""
	}
	abs, err := filepath.Abs(recordsDir)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(l.CacheDir, hex.EncodeToString(sum[:12])+".validated")
}

func (l *Log) openCache(recordsDir string) *validCache {
	path := l.cachePath(recordsDir)
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	header, rest, ok := bytes.Cut(b, []byte("\n"))
	if !ok || string(header) != "tp-acts-validated "+schemaSetDigest() {
		return nil
	}
	c := &validCache{set: make(map[digest]struct{}, len(rest)/33)}
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		var d digest
		if len(line) == 32 {
			if _, err := hex.Decode(d[:], line); err == nil {
				c.set[d] = struct{}{}
			}
		}
	}
	return c
}

// saveCache replaces the cache with the digests of the records just read.
// Failures are ignored: the cache is an optimisation.
func (l *Log) saveCache(recordsDir string, ds []digest) {
	path := l.cachePath(recordsDir)
	if path == "" {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	w.WriteString("tp-acts-validated " + schemaSetDigest() + "\n")
	var hx [32]byte
	for _, d := range ds {
		hex.Encode(hx[:], d[:])
		w.Write(hx[:])
		w.WriteByte('\n')
	}
	w.Flush()
	durable.WriteVolatile(path, buf.Bytes(), 0o644)
}
