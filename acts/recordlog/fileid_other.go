//go:build !unix

package recordlog

import "os"

// fileID: no device and inode here; the caller resolves the path instead.
func fileID(os.FileInfo) (string, bool) { return "", false }
