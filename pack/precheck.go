package pack

import (
	"io"
	"os"
)

// Precheck says whether path can be a pack at all — a readable regular file
// whose first bytes are a ZIP (.taskpack) or a JSON object (.taskpack.json)
// — without verifying it. A front end asks it before it opens a screen for
// the file, so a missing or unreadable file is a one-line error, not a full
// screen that says so. Its errors are the ones Open gives.
func Precheck(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return &Error{File: path, Rule: RuleNotAPack, Detail: err.Error()}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return &Error{File: path, Rule: RuleNotAPack, Detail: err.Error()}
	}
	if !st.Mode().IsRegular() {
		return &Error{File: path, Rule: RuleNotAPack, Detail: "not a regular file"}
	}
	head := make([]byte, 512)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return &Error{File: path, Rule: RuleNotAPack, Detail: err.Error()}
	}
	if _, ok := sniff(head[:n]); !ok {
		return &Error{File: path, Rule: RuleNotAPack, Detail: "neither a ZIP (.taskpack) nor a JSON object (.taskpack.json)"}
	}
	return nil
}
