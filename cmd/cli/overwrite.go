package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/tp-dev/tp/display"
)

// refuseOverwrite keeps tp pack and tp convert from replacing a file that
// is already there (a pack someone else sent, last week's handoff) unless
// --force says so. It runs before anything is read or recorded, so a
// refusal writes nothing: not the output, not the asks at home.
func refuseOverwrite(out string, force bool) error {
	if force {
		return nil
	}
	_, err := os.Lstat(out)
	switch {
	case err == nil:
		return withHint(fmt.Errorf("%s: already exists; nothing was written", display.Line(out)), "--force replaces it")
	case errors.Is(err, fs.ErrNotExist):
		return nil
	default:
		return fmt.Errorf("%s: %w", display.Line(out), err)
	}
}

// sameFile reports whether a and b name one existing file.
func sameFile(a, b string) bool {
	ia, err := os.Stat(a)
	if err != nil {
		return false
	}
	ib, err := os.Stat(b)
	return err == nil && os.SameFile(ia, ib)
}
