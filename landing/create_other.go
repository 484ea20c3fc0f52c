//go:build !linux

package landing

import (
	"errors"
)

// rawCreate: not here; extraction creates files through os.Root.
const rawCreate = false

func createIn(dir *folderFile, name string, data []byte) error {
	return errors.New("landing: createIn is Linux only")
}

func createInLocked(dir *folderFile, name string, data []byte) error {
	return errors.New("landing: createIn is Linux only")
}
