//go:build !linux

package filestamp

// Of has no inode and change time to read here: nothing is remembered, and
// every file is read again.
func Of(string) (Stamp, bool) { return Stamp{}, false }

// OfTarget is Of, links followed.
func OfTarget(string) (Stamp, bool) { return Stamp{}, false }
