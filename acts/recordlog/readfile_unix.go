//go:build unix

package recordlog

import (
	"errors"
	"syscall"
)

// readSmall reads a whole small file into buf (grown as needed), stopping
// one byte past maxRecordFile so oversize files are detected without
// reading them. It uses the raw system calls: os.Open would also try to
// register each of the log's many files with the network poller, which
// doubles the cost of loading a large log.
func readSmall(path string, buf []byte) ([]byte, error) {
	var fd int
	var err error
	for {
		// O_NONBLOCK: a FIFO swapped in after the folder was listed reads as
		// empty instead of waiting for a writer forever; O_NOFOLLOW: a link
		// swapped in is not followed (D9).
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
		if len(buf) > MaxRecordFile {
			return buf, nil
		}
	}
}
