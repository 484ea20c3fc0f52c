// Package incoming is the disk format of the packs that arrived over A2A
// (D23): <store>/incoming/<key>/ holds the pack as it came
// (pack.taskpack or pack.taskpack.json), its task.json, and — once the
// person packs the receipt that answers it — receipt.taskpack(.json).
// Nothing here lands a pack; the person does, with tp land.
package incoming

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tp-dev/tp/internal/durable"
)

// Folder is the incoming folder's name inside the store.
const Folder = "incoming"

// StateFile is each entry's state.
const StateFile = "task.json"

// MaxStateBytes bounds a task.json read.
const MaxStateBytes = 1 << 20

// Dir is the incoming folder of a store folder.
func Dir(storeDir string) string { return filepath.Join(storeDir, Folder) }

// Entry is one pack that arrived over A2A. Every string but the file
// names tp chose is the sender's (D11: sanitise before a terminal).
type Entry struct {
	Key        string `json:"key"` // the folder's name
	TaskID     string `json:"task_id"`
	ContextID  string `json:"context_id"`
	RootID     string `json:"root_id"`
	Kind       string `json:"kind"`
	Title      string `json:"title"`
	Pack       string `json:"pack"`   // file name in the entry's folder
	SHA256     string `json:"sha256"` // of the pack file
	Bytes      int64  `json:"bytes"`
	ReceivedAt string `json:"received_at"`
	// WithdrawnAt is set when the sender cancelled the task: the pack is
	// kept and shown, never deleted (D23).
	WithdrawnAt string `json:"withdrawn_at,omitempty"`
	// Receipt is the receipt the person packed in answer (a file name in
	// the folder), and when.
	Receipt   string `json:"receipt,omitempty"`
	ReceiptAt string `json:"receipt_at,omitempty"`

	dir string
}

// Path is the pack file.
func (e Entry) Path() string { return filepath.Join(e.dir, e.Pack) }

// Folder is the entry's folder.
func (e Entry) Folder() string { return e.dir }

// ReceiptPath is the receipt file ("" when none).
func (e Entry) ReceiptPath() string {
	if e.Receipt == "" {
		return ""
	}
	return filepath.Join(e.dir, e.Receipt)
}

// Load reads one entry's state.
func Load(dir string) (Entry, error) {
	f, err := os.Open(filepath.Join(dir, StateFile))
	if err != nil {
		return Entry{}, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxStateBytes+1))
	if err != nil {
		return Entry{}, err
	}
	if len(b) > MaxStateBytes {
		return Entry{}, fmt.Errorf("%s: over %d bytes", filepath.Join(dir, StateFile), MaxStateBytes)
	}
	var e Entry
	if err := json.Unmarshal(b, &e); err != nil {
		return Entry{}, fmt.Errorf("%s: %w", filepath.Join(dir, StateFile), err)
	}
	e.Key, e.dir = filepath.Base(dir), dir
	for _, n := range []string{e.Pack, e.Receipt} {
		if n != "" && (filepath.Base(n) != n || strings.HasPrefix(n, ".")) {
			return Entry{}, fmt.Errorf("%s: file name %q is not a plain name in the folder", filepath.Join(dir, StateFile), n)
		}
	}
	return e, nil
}

// Save writes an entry's state durably and atomically into dir.
func Save(dir string, e Entry) error {
	e.Key = filepath.Base(dir)
	b, err := json.MarshalIndent(e, "", "  ")
	if err != nil {
		return err
	}
	return durable.WriteFile(filepath.Join(dir, StateFile), append(b, '\n'), 0o600)
}

// List reads every entry of a store's incoming folder, newest first; an
// entry that cannot be read is skipped and named in the second result.
func List(storeDir string) ([]Entry, []string, error) {
	des, err := os.ReadDir(Dir(storeDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var out []Entry
	var bad []string
	for _, de := range des {
		if !de.IsDir() || strings.HasPrefix(de.Name(), ".") {
			continue
		}
		e, err := Load(filepath.Join(Dir(storeDir), de.Name()))
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].ReceivedAt != out[j].ReceivedAt {
			return out[i].ReceivedAt > out[j].ReceivedAt
		}
		return out[i].Key < out[j].Key
	})
	return out, bad, nil
}

// Holding is the entry whose pack file is path (a passport's
// landed_from.file), if path names a pack in a store's incoming folder.
func Holding(storeDir, path string) (Entry, bool) {
	if path == "" {
		return Entry{}, false
	}
	dir := filepath.Dir(path)
	if filepath.Dir(dir) != filepath.Clean(Dir(storeDir)) {
		return Entry{}, false
	}
	e, err := Load(dir)
	if err != nil || e.Pack != filepath.Base(path) {
		return Entry{}, false
	}
	return e, true
}

// AttachReceipt keeps a copy of the receipt file beside the incoming pack
// it answers (receipt.taskpack or receipt.taskpack.json, the newest
// replacing an older one) and records it, so the sender reads it back
// (tasks/get, D23). The copy is durable and whole or absent.
func AttachReceipt(e Entry, receipt string, flat bool, at string) error {
	name := "receipt.taskpack"
	if flat {
		name += ".json"
	}
	in, err := os.Open(receipt)
	if err != nil {
		return err
	}
	defer in.Close()
	f, tmp, err := durable.CreateTemp(e.dir, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, in)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if err := durable.Rename(tmp, filepath.Join(e.dir, name)); err != nil {
		return err
	}
	e.Receipt, e.ReceiptAt = name, at
	return Save(e.dir, e)
}
