//go:build !linux

package durable

import (
	"errors"
	"os"
)

const syncFSAvailable = false

func syncFS(string) error { return errors.New("syncfs is not available") }

func deviceOf(string) (uint64, bool) { return 0, false }

// StartWriteback does nothing here; the fsync at the end of each file
// still makes it durable.
func StartWriteback(*os.File, int64, int64) {}
