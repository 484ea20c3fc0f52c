//go:build !linux

package store

import "time"

// fileStamp is empty where no inode and change time can be read: LandedFrom
// then remembers nothing and reads every file, as List does.
type fileStamp struct{}

func stampOf(string) (fileStamp, bool) { return fileStamp{}, false }

func (fileStamp) racy(time.Time) bool { return true }
