package store

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/sanitize"
)

// SentPack is one pack this store made from one of its passports (issue 18,
// D6): the version it was made from and the pack's content identity. A
// receipt answering a version that no record names was never sent from
// here; a ✓ is restored only for packs whose lineage passes through a
// record (TaskPack 0.1 §4.2).
type SentPack struct {
	Version       int64  `json:"version"`
	Kind          string `json:"kind"`
	PackedAt      string `json:"packed_at"`
	ContentSHA256 string `json:"content_sha256"`
	// SealedTo are the fingerprints (SHA256:…) of the SSH keys the pack
	// was sealed to (D22): the keys its receipts are expected to be signed
	// with. An age recipient (age1…) signs nothing and is not listed.
	SealedTo []string `json:"sealed_to,omitempty"`
	// ReceiptSigner is the fingerprint of the key that signed the first
	// receipt merged for this version when it was sealed to no SSH key
	// (trust on first use, D22).
	ReceiptSigner string `json:"receipt_signer,omitempty"`
}

func (p SentPack) same(q SentPack) bool {
	return p.Version == q.Version && p.Kind == q.Kind && p.PackedAt == q.PackedAt && p.ContentSHA256 == q.ContentSHA256 &&
		p.ReceiptSigner == q.ReceiptSigner && slices.Equal(p.SealedTo, q.SealedTo)
}

// MaxSentBytes bounds a passport's record of packs sent (D10): about
// 100,000 records.
const MaxSentBytes = 16 << 20

// SentPath is where the record of packs sent from passport id lives:
// <store>/<id>.sent, beside the passport, never a passport file itself (the
// reference and List read only <id>.json), and never copied into a pack.
func (s *Store) SentPath(id string) string { return filepath.Join(s.dir, id+".sent") }

// Sent reads the record of packs sent from passport id; ok is false when
// there is none (the passport was never packed since tp kept records).
//
// A record read before is not read again while its file's identity
// (filestamp: inode, size, change times) is as it was, taken before the
// read and kept only when the file had not changed within the stamp's
// resolution of that moment (the racy rule, as LandedFrom keeps it): a
// dry-run land asks for the record of every passport its lineage names,
// and it grows by one entry a pack. The packs returned are the caller's.
func (s *Store) Sent(id string) (packs []SentPack, ok bool, err error) {
	if err := ValidID(id); err != nil {
		return nil, false, err
	}
	packs, err = s.sent.Of(id, s.SentPath(id), func() ([]SentPack, error) {
		packs, ok, err := s.readSent(id)
		if err == nil && !ok {
			err = errNoSent // nothing to remember
		}
		return packs, err
	})
	if errors.Is(err, errNoSent) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return cloneSent(packs), true, nil
}

// errNoSent is a passport without a record of packs sent, inside Sent.
var errNoSent = errors.New("no record of packs sent")

// readSent reads the record of packs sent from passport id from its file.
func (s *Store) readSent(id string) (packs []SentPack, ok bool, err error) {
	data, err := readRegular(s.SentPath(id), MaxSentBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if err := json.Unmarshal(data, &packs); err != nil {
		return nil, false, errors.New(sanitize.Line(s.SentPath(id) + ": not a record of packs sent: " + err.Error()))
	}
	return packs, true, nil
}

// sentKept bounds how many records Sent remembers.
const sentKept = 64

// cloneSent copies a record, so no caller shares what Sent remembers.
func cloneSent(packs []SentPack) []SentPack {
	out := slices.Clone(packs)
	for i := range out {
		out[i].SealedTo = slices.Clone(out[i].SealedTo)
	}
	return out
}

// RecordSent appends p to the record of packs sent from passport id, under
// a lock of its own, replacing the file atomically.
func (s *Store) RecordSent(id string, p SentPack) error {
	w, err := s.BeginSent(id, p)
	if err != nil {
		return err
	}
	if err := w.Sync(); err != nil {
		w.Abort()
		return err
	}
	return w.Commit()
}

// SentWrite is a record of packs sent with one more pack, written beside
// the record and not yet durable (BeginSent), under the record's lock until
// Commit or Abort: a pack is recorded as sent before it appears, and the
// record's sync and the pack's, neither needing the other, run together
// (landing.Pack, issue 16).
type SentWrite struct {
	s      *Store
	path   string
	data   []byte           // what the store's write seam is given (tests)
	p      *durable.Pending // nil: the record names the pack already, or the seam writes
	unlock func()
}

// BeginSent is RecordSent up to the record's sync: it takes the record's
// lock, reads the record and writes it with p appended beside it. The
// caller syncs (Sync), then puts it in place (Commit) or drops it (Abort);
// either releases the lock.
func (s *Store) BeginSent(id string, p SentPack) (*SentWrite, error) {
	if err := ValidID(id); err != nil {
		return nil, err
	}
	unlock, err := s.Lock(id + "-sent")
	if err != nil {
		return nil, err
	}
	packs, _, err := s.readSent(id) // the file itself, under the record's lock
	if err != nil {
		unlock()
		return nil, err
	}
	w := &SentWrite{s: s, path: s.SentPath(id), unlock: unlock}
	for _, q := range packs {
		if q.same(p) {
			return w, nil // named already: nothing to write
		}
	}
	if w.data, err = s.sentBytes(id, append(packs, p)); err != nil {
		unlock()
		return nil, err
	}
	if s.write == nil {
		if w.p, err = durable.Begin(w.path, 0o600, func(b *bufio.Writer) error { _, err := b.Write(w.data); return err }); err != nil {
			unlock()
			return nil, err
		}
	}
	return w, nil
}

// Sync makes the new record's bytes durable.
func (w *SentWrite) Sync() error {
	if w.p == nil {
		return nil
	}
	return w.p.Sync()
}

// Commit puts the synced record in place, durably, and releases the lock.
func (w *SentWrite) Commit() error {
	defer w.unlock()
	switch {
	case w.p != nil:
		return w.p.Commit()
	case w.data != nil:
		return w.s.writeAtomic(w.path, w.data)
	}
	return nil
}

// Abort drops the new record, leaving the one in place as it was, and
// releases the lock.
func (w *SentWrite) Abort() {
	if w.p != nil {
		w.p.Abort()
	}
	w.unlock()
}

// updateSent is the one read-modify-write of passport id's record of packs
// sent: under the record's own lock, change returns the new list and
// whether it differs; the file is replaced atomically only then.
func (s *Store) updateSent(id string, change func([]SentPack) ([]SentPack, bool)) error {
	if err := ValidID(id); err != nil {
		return err
	}
	unlock, err := s.Lock(id + "-sent")
	if err != nil {
		return err
	}
	defer unlock()
	packs, _, err := s.readSent(id) // the file itself, under the record's lock
	if err != nil {
		return err
	}
	packs, changed := change(packs)
	if !changed {
		return nil
	}
	data, err := s.sentBytes(id, packs)
	if err != nil {
		return err
	}
	return s.writeAtomic(s.SentPath(id), data)
}

// sentBytes is the record of packs sent as its file holds it.
func (s *Store) sentBytes(id string, packs []SentPack) ([]byte, error) {
	data, err := json.MarshalIndent(packs, "", "  ")
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSentBytes {
		return nil, fmt.Errorf("%s: the record of packs sent would pass %d bytes (D10)", s.SentPath(id), MaxSentBytes)
	}
	return append(data, '\n'), nil
}

// PinReceiptSigner records fp as the key that signed the first receipt
// merged for version v of passport id, on every record of that version
// that was sealed to no SSH key and names no signer yet (D22). A version
// with no record is left as it is.
func (s *Store) PinReceiptSigner(id string, v int64, fp string) error {
	return s.updateSent(id, func(packs []SentPack) ([]SentPack, bool) {
		changed := false
		for i := range packs {
			if packs[i].Version == v && len(packs[i].SealedTo) == 0 && packs[i].ReceiptSigner == "" {
				packs[i].ReceiptSigner = fp
				changed = true
			}
		}
		return packs, changed
	})
}

// SentVersion reports whether a record names version v of passport id, and
// whether there is a record at all.
func (s *Store) SentVersion(id string, v int64) (sent, recorded bool, err error) {
	packs, ok, err := s.Sent(id)
	if err != nil || !ok {
		return false, ok, err
	}
	for _, p := range packs {
		if p.Version == v {
			return true, true, nil
		}
	}
	return false, true, nil
}
