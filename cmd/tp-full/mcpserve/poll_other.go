//go:build !unix

package mcpserve

import "io"

// pollable is the input as it is where Go polls no pipes.
func pollable(in io.Reader) (io.Reader, func()) { return in, func() {} }
