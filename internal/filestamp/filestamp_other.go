//go:build !linux

package filestamp

import "os"

// Of has no inode and change time to read here: nothing is remembered, and
// every file is read again.
func Of(string) (Stamp, bool) { return Stamp{}, false }

// OfTarget is Of, links followed.
func OfTarget(string) (Stamp, bool) { return Stamp{}, false }

// OfInfo is Of for a file already looked at.
func OfInfo(os.FileInfo) (Stamp, bool) { return Stamp{}, false }
