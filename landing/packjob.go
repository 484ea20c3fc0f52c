package landing

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/incoming"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/internal/sshsign"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/model"
	"github.com/tp-dev/tp/pack"
)

// PackRequest is one pack made from a stored passport: the job behind
// `tp pack` and the UI's "pack a receipt".
type PackRequest struct {
	ID       string        // the stored passport
	Out      string        // the pack file to write
	Encoding pack.Encoding // pack.EncodingBag or pack.EncodingFlat
	Build    BuildOptions
	// Replace lets the pack replace a file already at Out; without it an
	// existing Out (a file, a folder, a link) is refused before anything is
	// built, and the final move never replaces one that appeared meanwhile.
	Replace bool
	// Sign, when set, signs the pack (D22; pack.WriteOptions.Sign).
	Sign func(identity []byte) (string, error)
	// Seal, when set, encrypts the finished (signed) pack for its
	// receivers (D22): it copies src, the pack's bytes, into dst sealed.
	// Out is then the sealed file; the plain pack never appears there.
	Seal func(dst io.Writer, src io.Reader) error
	// SealedTo are the recipients Seal encrypts to, as given (age1… or an
	// SSH public key line): the SSH ones are recorded with the pack, so
	// the receipts that come back are checked against them (D22).
	SealedTo []string
}

// PackReport says what was packed and recorded.
type PackReport struct {
	Built       *Built
	Encoding    pack.Encoding
	PassportID  string
	Version     int64    // the passport version the pack was made from
	HomeVersion int64    // the passport's version after the asks were recorded
	Recorded    []string // ids of the asks recorded at home (§4.3)
	Warnings    []string // Preflight's warnings: shown, never refusals
	// Signature is the pack's signature (D22); nil: unsigned.
	Signature *pack.Signature
	// ContentSHA256 is the pack's content identity (D22).
	ContentSHA256 string
}

// packHooks are seams for this package's tests; Pack passes none.
type packHooks struct {
	beforeHomeSave func()
	// failSync, when set, is called in place of the named file's sync
	// ("pack", "sent") and its error returned.
	failSync func(what string) error
}

// sync is the sync step of the file named what, or the failure the test
// puts in its place.
func (h packHooks) sync(what string, step func() error) func() error {
	if h.failSync == nil {
		return step
	}
	return func() error {
		if err := h.failSync(what); err != nil {
			return err
		}
		return step()
	}
}

// Pack builds a pack from a stored passport and records the asks it sends
// at home, in the one order that never leaves a pack whose asks are not
// recorded (TaskPack 0.1 §4.3): the pack is written (sealed, refusals
// applied) beside its target under a temporary name; then the asks are
// saved into the passport with the version it was read at; only then is the
// pack renamed into place. A refused pack records nothing; a conflicting
// save leaves no pack. Once the pack is built the report is returned also
// with an error, so that a front end can show Preflight's warnings.
func Pack(ctx context.Context, s *store.Store, req PackRequest) (*PackReport, error) {
	return packWith(ctx, s, req, packHooks{})
}

func packWith(ctx context.Context, s *store.Store, req PackRequest, hooks packHooks) (*PackReport, error) {
	if req.Out == "" || req.Out == "-" {
		// A pack appears only once complete (written beside, then renamed),
		// and stdout carries the report: it is always a named file.
		return nil, fmt.Errorf("pack: out %q: name the pack file to write (a pack is never written to stdout)", req.Out)
	}
	stored, err := s.Get(req.ID)
	if err != nil {
		return nil, err
	}
	built, err := Build(ctx, stored.V, req.Build)
	if err != nil {
		return nil, err
	}
	rep := &PackReport{Built: built, Encoding: req.Encoding, PassportID: stored.Passport().ID(),
		Version: stored.Version, HomeVersion: stored.Version, Recorded: []string{}, Warnings: Preflight(built)}
	if req.Build.Kind == model.KindReceipt && !ReceiptHasHome(stored.V) {
		// Only the reference's entry points get here (HomelessReceipt): the
		// pack is made as the reference makes it, and said to go nowhere.
		rep.Warnings = append(rep.Warnings, (&NoHomeError{ID: stored.Passport().ID()}).Homeless())
	}
	if rep.PassportID == "" {
		rep.PassportID = req.ID
	}
	out, err := filepath.Abs(req.Out)
	if err != nil {
		return rep, err
	}
	if !req.Replace {
		if err := refuseExisting(out); err != nil {
			return rep, err
		}
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return rep, err
	}
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	// The pack is written beside out, and recorded as sent before it
	// appears (issue 18, D6): a receipt answering a version never sent is
	// refused, and a ✓ is restored only for packs whose lineage passes
	// through one of these. Both are written first and synced together:
	// each must be durable before the pack is put in place, neither needs
	// the other (D18). When the pack then does not appear, the record
	// withdraws it.
	wr, written, err := pack.Begin(out, built.Source, req.Encoding, pack.WriteOptions{Sign: req.Sign})
	if err != nil {
		return rep, err
	}
	tmp := written.Name()
	rep.Signature, rep.ContentSHA256 = wr.Signature, wr.ContentSHA256
	if err := ctx.Err(); err != nil {
		written.Abort()
		return rep, err
	}
	sent, err := beginSent(s, rep.PassportID, stored.Version, wr, sshFingerprints(req.SealedTo))
	if err != nil {
		written.Abort()
		return rep, err
	}
	// notMade is a pack that will not appear: its temporary file goes and
	// the record no longer names it.
	notMade := func(err error) error {
		os.Remove(tmp)
		if werr := sent.Withdraw(); werr != nil {
			return fmt.Errorf("%w (and the record of packs sent could not withdraw it: %v)", err, werr)
		}
		return err
	}
	if err := durable.Together(hooks.sync("pack", written.Sync), hooks.sync("sent", sent.Sync)); err != nil {
		written.Abort()
		return rep, notMade(err)
	}
	if req.Seal != nil {
		sealed := tmp + ".age"
		err := durable.Write(sealed, 0o644, func(w *bufio.Writer) error {
			f, err := os.Open(tmp)
			if err != nil {
				return err
			}
			defer f.Close()
			return req.Seal(w, f)
		})
		os.Remove(tmp) // the plain pack never stays beside the sealed one
		if err != nil {
			os.Remove(sealed)
			return rep, notMade(fmt.Errorf("pack: sealing %s: %w", sanitize.Line(req.Out), err))
		}
		tmp = sealed
	}
	if built.Home != nil {
		if hooks.beforeHomeSave != nil {
			hooks.beforeHomeSave()
		}
		saved, err := s.Save(built.Home, stored.Version)
		if err != nil {
			return rep, notMade(err)
		}
		rep.HomeVersion, _ = saved.Get("version").Int()
		for _, a := range built.Sent {
			rep.Recorded = append(rep.Recorded, a.ID())
		}
	}
	place := durable.Rename
	if !req.Replace {
		place = durable.RenameNew
	}
	if err := place(tmp, out); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return rep, notMade(&ExistsError{Path: out, Recorded: len(rep.Recorded)})
		}
		return rep, notMade(err)
	}
	// A receipt answering a pack that arrived over A2A is kept beside it
	// too, so the sender reads it back (D23). The pack is made either way.
	if req.Build.Kind == model.KindReceipt {
		if e, ok := incoming.Holding(s.Dir(), stored.V.Get("landed_from").Get("file").Text()); ok {
			if err := incoming.AttachReceipt(e, out, req.Encoding == pack.EncodingFlat, time.Now().UTC().Format(time.RFC3339)); err != nil {
				rep.Warnings = append(rep.Warnings, "the receipt is written, but not kept for the A2A sender: "+err.Error())
			}
		}
	}
	return rep, nil
}

// ExistsError is a pack refused because its out file exists and the
// request did not say to replace it.
type ExistsError struct {
	Path     string
	Recorded int // asks already recorded at home when the file appeared meanwhile
}

func (e *ExistsError) Error() string {
	msg := fmt.Sprintf("pack: %s already exists; nothing was written (replacing it must be asked for: --force, or force: true)", sanitize.Line(e.Path))
	if e.Recorded > 0 {
		msg += fmt.Sprintf("; it appeared while packing, after %d asks were recorded at home", e.Recorded)
	}
	return msg
}

func (e *ExistsError) Unwrap() error { return fs.ErrExist }

// refuseExisting is an ExistsError when anything is at path (a link is not
// followed: a dangling one counts).
func refuseExisting(path string) error {
	_, err := os.Lstat(path)
	switch {
	case err == nil:
		return &ExistsError{Path: path}
	case errors.Is(err, fs.ErrNotExist):
		return nil
	default:
		return fmt.Errorf("pack: %s: %w", sanitize.Line(path), err)
	}
}

// recordSent records the pack just written, made from version of passport
// id, in the store's record of packs sent: its kind, time and content
// identity as the writer computed them from the object and luggage it wrote,
// which is what a reader computes from the file (TestPackRecordsWhatItSent).
// Not read back from the file: that was a third of packing a big passport
// (issue 20).
func beginSent(s *store.Store, id string, version int64, wr pack.WriteResult, sealedTo []string) (*store.SentWrite, error) {
	po := model.PackObject{V: wr.Object}
	return s.BeginSent(id, store.SentPack{Version: version, Kind: po.Kind(), PackedAt: po.PackedAt(),
		ContentSHA256: wr.ContentSHA256, SealedTo: sealedTo})
}

// sshFingerprints are the fingerprints of the SSH public keys among
// recipients (an age recipient is not a key anyone signs with).
func sshFingerprints(recipients []string) []string {
	var out []string
	for _, r := range recipients {
		if k, _, _, _, err := ssh.ParseAuthorizedKey([]byte(r)); err == nil {
			out = append(out, sshsign.Fingerprint(k))
		}
	}
	return out
}
