package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
)

// A client may send its requests and close stdin at once (`tp mcp <
// requests.jsonl`, a harness's batch): the requests read before the end
// are answered, then the server exits. The SDK ends the session at the
// reader's EOF, dropping what is in flight, so the reader tp gives it holds
// EOF back until every request it passed on has its response written.

// inflight counts the requests read and the responses written.
type inflight struct {
	mu        sync.Mutex
	cond      *sync.Cond
	requests  int
	responses int
}

func newInflight() *inflight {
	f := &inflight{}
	f.cond = sync.NewCond(&f.mu)
	return f
}

// message is what tp needs of one JSON-RPC message. Its raw members point
// into the line read (count must not keep them).
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// scanLines counts the messages of complete lines in buf (a batch counts
// each of its members) with count, and returns what is left of a line.
// checked says whether a line must be checked as JSON first (the client's
// lines); the server's own output is encoding/json's.
func scanLines(buf []byte, checked bool, count func(message)) []byte {
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return buf
		}
		line := bytes.TrimSpace(buf[:i])
		buf = buf[i+1:]
		if len(line) == 0 {
			continue
		}
		if line[0] == '[' {
			var batch []message
			if json.Unmarshal(line, &batch) == nil {
				for _, m := range batch {
					count(m)
				}
			}
			continue
		}
		if m, ok := readMessage(line, checked); ok {
			count(m)
		}
	}
}

// readMessage reads a message's id, method, result and error as
// json.Unmarshal would into message (ok is false where it would fail),
// without decoding the rest: a response's result is read past, not copied.
func readMessage(line []byte, checked bool) (m message, ok bool) {
	if checked && !json.Valid(line) {
		return message{}, false
	}
	if bytes.Equal(line, []byte("null")) {
		return message{}, true
	}
	valid := true
	whole := members(line, func(name, value []byte) {
		switch string(name) {
		case "id":
			m.ID = value
		case "result":
			m.Result = value
		case "error":
			m.Error = value
		case "method":
			switch {
			case string(value) == "null": // json.Unmarshal leaves a string as it was
			case value[0] != '"':
				valid = false
			case bytes.IndexByte(value, '\\') < 0:
				m.Method = string(value[1 : len(value)-1])
			default:
				json.Unmarshal(value, &m.Method)
			}
		}
	})
	return m, whole && valid
}

// scanMore is scanLines over what is left of a line before and p after it;
// what is left after p is kept in rest's own memory (p is the caller's).
func scanMore(rest, p []byte, checked bool, count func(message)) []byte {
	buf := p
	if len(rest) > 0 {
		buf = append(rest, p...)
	}
	left := scanLines(buf, checked, count)
	return append(rest[:0], left...)
}

// heldReader is the client's input with its EOF held back until every
// request read is answered (or ctx ends).
type heldReader struct {
	ctx  context.Context
	in   io.ReadCloser
	f    *inflight
	rest []byte
}

func (r *heldReader) Read(p []byte) (int, error) {
	n, err := r.in.Read(p)
	if n > 0 {
		r.rest = scanMore(r.rest, p[:n], true, func(m message) {
			if len(m.ID) > 0 && m.Method != "" {
				r.f.mu.Lock()
				r.f.requests++
				r.f.mu.Unlock()
			}
		})
	}
	if err == io.EOF {
		if len(bytes.TrimSpace(r.rest)) > 0 { // a last line without its newline
			r.rest = scanLines(append(r.rest, '\n'), true, func(m message) {
				if len(m.ID) > 0 && m.Method != "" {
					r.f.mu.Lock()
					r.f.requests++
					r.f.mu.Unlock()
				}
			})
			if n > 0 {
				return n, nil // the SDK reads the line, then meets EOF again
			}
		}
		if n > 0 {
			return n, nil
		}
		r.wait()
	}
	return n, err
}

// wait blocks until every request read has its response, or ctx ends.
func (r *heldReader) wait() {
	stop := context.AfterFunc(r.ctx, func() {
		r.f.mu.Lock()
		r.f.cond.Broadcast()
		r.f.mu.Unlock()
	})
	defer stop()
	r.f.mu.Lock()
	for r.f.responses < r.f.requests && r.ctx.Err() == nil {
		r.f.cond.Wait()
	}
	r.f.mu.Unlock()
}

func (r *heldReader) Close() error { return r.in.Close() }

// countingWriter is the client's output, counting the responses written.
type countingWriter struct {
	out  io.WriteCloser
	f    *inflight
	mu   sync.Mutex
	rest []byte
}

func (w *countingWriter) Write(p []byte) (int, error) {
	n, err := w.out.Write(p)
	w.mu.Lock()
	w.rest = scanMore(w.rest, p[:n], false, func(m message) {
		if len(m.ID) > 0 && m.Method == "" && (len(m.Result) > 0 || len(m.Error) > 0) {
			w.f.mu.Lock()
			w.f.responses++
			w.f.cond.Broadcast()
			w.f.mu.Unlock()
		}
	})
	w.mu.Unlock()
	return n, err
}

func (w *countingWriter) Close() error { return w.out.Close() }
