package acts

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tp-dev/tp/internal/durable"
)

// Pinning the first principal (D19). The acts dir is shared — agents write
// records into it, git brings other machines' files — so its
// allowed_signers and principals/ could be removed or replaced wholesale
// by anyone who can write there, turning a project back into an
// unauthenticated one or into someone else's. The registrar therefore
// remembers, on its own machine and outside the acts dir, the first
// principal change of every project it has seen with a principal, and
// applies no principal-side record when that change is gone or different.

// PinDir is where a machine keeps its pins for the log at actsDir:
// $XDG_STATE_HOME/tp/acts-pins (else ~/.local/state/tp/acts-pins), one
// folder per acts dir. "" when no home is known (no pinning).
func PinDir(getenv func(string) string, actsDir string) string {
	base := ""
	if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		base = filepath.Join(d, "tp", "acts-pins")
	} else if h := getenv("HOME"); h != "" {
		base = filepath.Join(h, ".local", "state", "tp", "acts-pins")
	} else {
		return ""
	}
	abs, err := filepath.Abs(actsDir)
	if err != nil {
		abs = actsDir
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(base, hex.EncodeToString(sum[:8]))
}

// CheckPin compares the project's principals with this machine's pin and
// records the pin the first time the project has trusted principals. When
// they disagree, every principal-side record is moved from Records to
// Rejected with the reason, and the reason is returned.
func (ld *Loaded) CheckPin(l *Log, pinDir string) (string, error) {
	if pinDir == "" || ld.Principals == nil {
		return "", nil
	}
	path := filepath.Join(pinDir, EncodeName(ld.Project))
	want, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("principal pin: %w", err)
	}
	p := ld.Principals
	have := ""
	if len(p.Changes) > 0 && p.Mismatch == "" {
		first := p.Changes[0]
		have = first.ID + " " + first.PublicKey + "\n"
	}
	switch {
	case want == nil && have != "":
		if err := os.MkdirAll(pinDir, 0o755); err != nil {
			return "", fmt.Errorf("principal pin: %w", err)
		}
		return "", durable.WriteFile(path, []byte(have), 0o644)
	case want == nil || string(want) == have:
		return "", nil
	}
	why := fmt.Sprintf("this machine saw project %s's principals start with change %s, and the acts dir no longer has that change (allowed_signers and principals/ were removed or replaced); no principal-side record is applied until that is repaired (or the pin %s removed by the person who owns this machine)",
		ld.Project, strings.Fields(string(want))[0], path)
	if have == "" && p.Mismatch != "" {
		return "", nil // already failing closed for the mismatch
	}
	kept := ld.Records[:0]
	for _, r := range ld.Records {
		if PrincipalSide(r) {
			ld.Rejected = append(ld.Rejected, Rejected{Path: l.RecordPath(ld.Project, r.ID), ID: r.ID, Type: r.Type, Key: r.Key, Why: why})
			continue
		}
		kept = append(kept, r)
	}
	ld.Records = kept
	return why, nil
}
