package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

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

// The record's file is a log, appended to and never rewritten: one JSON
// object a line, each a pack sent (SentPack), a pack withdrawn (a pack
// recorded before it was put in place, whose making then failed) or a
// receipt signer pinned (PinReceiptSigner). A record an older tp wrote, one
// JSON array of packs, is read as the log's first lines. Appending takes
// no lock, no temporary file and no rename, so a pack's record costs one
// sync, made together with the pack's own (issue 16, D18); concurrent
// appenders' lines never mix (O_APPEND, each line one write).
type sentLine struct {
	SentPack
	// Withdrawn names a pack recorded by a line before that never
	// appeared: the latest such line no longer counts.
	Withdrawn *SentPack `json:"withdrawn,omitempty"`
	// Pin is PinReceiptSigner's line.
	Pin *sentPin `json:"pin,omitempty"`
}

type sentPin struct {
	Version       int64  `json:"version"`
	ReceiptSigner string `json:"receipt_signer"`
}

// readSent reads the record of packs sent from passport id from its file.
func (s *Store) readSent(id string) (packs []SentPack, ok bool, err error) {
	data, err := readRegular(s.SentPath(id), MaxSentBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	packs, err = parseSent(data)
	if err != nil {
		return nil, false, errors.New(sanitize.Line(s.SentPath(id) + ": not a record of packs sent: " + err.Error()))
	}
	return packs, true, nil
}

// parseSent folds a record's lines into the packs it names, in the order
// sent. A line cut short (a crash while it was appended: its pack was
// never put in place, the record is synced first) is skipped; any other
// line that is not one of the record's is an error.
func parseSent(data []byte) ([]SentPack, error) {
	packs := []SentPack{}
	rest := bytes.TrimLeft(data, " \t\r\n")
	if len(rest) > 0 && rest[0] == '[' {
		// An older tp's record: one array, then perhaps lines.
		dec := json.NewDecoder(bytes.NewReader(rest))
		if err := dec.Decode(&packs); err != nil {
			return nil, err
		}
		rest = rest[dec.InputOffset():]
	}
	for len(rest) > 0 {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var l sentLine
		if err := json.Unmarshal(line, &l); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) && se.Offset >= int64(len(line)) {
				continue // cut short
			}
			return nil, err
		}
		switch {
		case l.Withdrawn != nil:
			// The latest line naming it: a pack named twice stays named
			// once.
			for i := len(packs) - 1; i >= 0; i-- {
				if packs[i].same(*l.Withdrawn) {
					packs = slices.Delete(packs, i, i+1)
					break
				}
			}
		case l.Pin != nil:
			for i := range packs {
				if packs[i].Version == l.Pin.Version && len(packs[i].SealedTo) == 0 && packs[i].ReceiptSigner == "" {
					packs[i].ReceiptSigner = l.Pin.ReceiptSigner
				}
			}
		default:
			packs = append(packs, l.SentPack)
		}
	}
	return packs, nil
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

// RecordSent appends p to the record of packs sent from passport id,
// durably.
func (s *Store) RecordSent(id string, p SentPack) error {
	w, err := s.BeginSent(id, p)
	if err != nil {
		return err
	}
	return w.Sync()
}

// SentWrite is a pack appended to the record of packs sent and not yet
// durable (BeginSent). A pack is recorded as sent before it is put in
// place; the record's sync and the pack's, neither needing the other, run
// together (landing.Pack, issue 16).
type SentWrite struct {
	s       *Store
	id      string
	p       SentPack
	f       *os.File // open from the append until Sync
	wrote   bool     // false: the record named the pack already
	created bool     // the record's file is new: its folder is synced too
}

// BeginSent appends p to the record of packs sent from passport id and
// syncs nothing: the caller syncs (Sync) before the pack appears, and
// withdraws the pack from the record (Withdraw) if it then never appears.
// The record is not read: a pack named twice (the same pack made twice in
// a second) is named, and the cost of a pack does not grow with the packs
// made before it.
func (s *Store) BeginSent(id string, p SentPack) (*SentWrite, error) {
	if err := ValidID(id); err != nil {
		return nil, err
	}
	w := &SentWrite{s: s, id: id, p: p}
	line, err := json.Marshal(sentLine{SentPack: p})
	if err != nil {
		return nil, err
	}
	if w.f, w.created, err = s.appendSent(id, line); err != nil {
		return nil, err
	}
	w.wrote = true
	return w, nil
}

// appendSent appends one line to passport id's record, creating the file
// when there is none, and returns it open for its sync.
func (s *Store) appendSent(id string, line []byte) (f *os.File, created bool, err error) {
	path := s.SentPath(id)
	// Non-blocking, as the store's readers open its files: what is not a
	// regular file (a FIFO, a device) is refused below without waiting on
	// it; a regular file's reads and writes are as ever.
	f, err = os.OpenFile(path, os.O_RDWR|os.O_APPEND|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(s.dir, 0o700); err != nil {
			return nil, false, err
		}
		f, err = os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|syscall.O_NONBLOCK, 0o600)
		created = true
	}
	if err != nil {
		return nil, false, err
	}
	fail := func(err error) (*os.File, bool, error) {
		f.Close()
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, false, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	if fi.Size()+int64(len(line))+2 > MaxSentBytes {
		return fail(fmt.Errorf("the record of packs sent would pass %d bytes (D10)", MaxSentBytes))
	}
	buf := make([]byte, 0, len(line)+2)
	if fi.Size() > 0 {
		// After a line cut short, this one starts on a line of its own.
		var last [1]byte
		if _, err := f.ReadAt(last[:], fi.Size()-1); err == nil && last[0] != '\n' {
			buf = append(buf, '\n')
		}
	}
	buf = append(append(buf, line...), '\n')
	if _, err := f.Write(buf); err != nil {
		return fail(err)
	}
	return f, created, nil
}

// Sync makes the appended line durable (and a new record's folder entry).
func (w *SentWrite) Sync() error {
	if w.f == nil {
		return nil
	}
	f := w.f
	w.f = nil
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: fsync: %w", w.s.SentPath(w.id), err)
	}
	if w.created {
		return durable.SyncDir(w.s.dir)
	}
	return nil
}

// Withdraw says in the record that the pack BeginSent appended never
// appeared, durably: the line BeginSent appended no longer counts (the
// same pack named by an earlier line stays named).
func (w *SentWrite) Withdraw() error {
	if w.f != nil {
		w.f.Close()
		w.f = nil
	}
	if !w.wrote {
		return nil
	}
	w.wrote = false
	return w.s.appendSentLine(w.id, sentLine{Withdrawn: &w.p})
}

// appendSentLine appends l to passport id's record, durably.
func (s *Store) appendSentLine(id string, l sentLine) error {
	line, err := json.Marshal(l)
	if err != nil {
		return err
	}
	f, created, err := s.appendSent(id, line)
	if err != nil {
		return err
	}
	w := &SentWrite{s: s, id: id, f: f, created: created}
	return w.Sync()
}

// PinReceiptSigner records fp as the key that signed the first receipt
// merged for version v of passport id, on every record of that version
// that was sealed to no SSH key and names no signer yet (D22). A version
// with no record is left as it is.
func (s *Store) PinReceiptSigner(id string, v int64, fp string) error {
	if err := ValidID(id); err != nil {
		return err
	}
	packs, _, err := s.readSent(id)
	if err != nil {
		return err
	}
	for _, p := range packs {
		if p.Version == v && len(p.SealedTo) == 0 && p.ReceiptSigner == "" {
			return s.appendSentLine(id, sentLine{Pin: &sentPin{Version: v, ReceiptSigner: fp}})
		}
	}
	return nil
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
