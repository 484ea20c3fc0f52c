//go:build !linux

package durable

// renameNoReplace is not available here; the caller links instead.
func renameNoReplace(oldpath, newpath string) (ok bool, err error) { return false, nil }
