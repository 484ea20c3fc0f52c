package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// tp serves stdio through its own transport, lineTransport, rather than
// the SDK's IOTransport. The SDK's reads each line with a stream decoder
// and then decodes the value it read two or three times more (as a batch,
// as a message, its method), each decode taking a fresh 32 KiB buffer;
// and it writes a response by encoding an already encoded result again.
// For a dry-run land that was most of what the call allocated (issue 16,
// BENCHMARKS.md "The agent's end"). lineTransport reads each line into one
// reused buffer, decodes it once, and writes a tool's result as the bytes
// it already is. It keeps what the SDK's transport does:
//
//   - one JSON-RPC message per line (a blank line is skipped, CRLF is
//     read as LF);
//   - JSON-RPC batches under the protocol versions before 2025-06-18
//     (their responses sent together as one array), refused from
//     2025-06-18 on;
//   - a cap on a line, the SDK's own (16 MiB): a longer one ends the
//     session with an error that says so;
//   - a malformed message ends the session, as the SDK's does.
//
// And it adds what tp needs of the end of its input: a client may send its
// requests and close stdin at once (`tp mcp < requests.jsonl`, a harness's
// batch). The SDK ends the session at the reader's EOF, dropping what is
// in flight; lineTransport gives the SDK the EOF only once every request
// it passed on has its response written (or the session ends).

// maxLineBytes is the longest line lineTransport reads: the SDK's cap.
const maxLineBytes = sdk.DefaultMaxLineLength

// maxDepth is how deeply a message may nest, as the SDK's decoder allows.
const maxDepth = 1000

// batchedUntil is the first protocol version without JSON-RPC batches.
const batchedUntil = "2025-06-18"

// lineTransport is newline-delimited JSON-RPC over in and out.
type lineTransport struct {
	in  io.ReadCloser
	out io.WriteCloser
	max int // the line cap; 0 is maxLineBytes
}

func (t *lineTransport) Connect(context.Context) (sdk.Connection, error) {
	max := t.max
	if max <= 0 {
		max = maxLineBytes
	}
	c := &lineConn{in: t.in, out: t.out, incoming: make(chan lineRead), closed: make(chan struct{}),
		pending: map[jsonrpc.ID]struct{}{}}
	go c.readLoop(max)
	return c, nil
}

// lineRead is what one line held: its messages (more than one for a
// batch), or why there are none.
type lineRead struct {
	msgs  []jsonrpc.Message
	batch bool
	err   error
}

type lineConn struct {
	in  io.ReadCloser
	out io.WriteCloser

	incoming chan lineRead
	queue    []jsonrpc.Message // the rest of the last batch read (reads are serial)

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error

	mu sync.Mutex
	// pending are the requests read that have no response written yet;
	// idle, while a read waits at the input's end, closes when none are
	// left.
	pending map[jsonrpc.ID]struct{}
	idle    chan struct{}
	// initialize is the initialize request's id, until its response
	// gives the protocol version, which says whether batches are allowed.
	initialize *jsonrpc.ID
	version    string
	// batches are the incoming batches with responses still to come, by
	// the id of each of their requests.
	batches map[jsonrpc.ID]*lineBatch

	writeMu sync.Mutex
	buf     []byte // the line being written, reused (under writeMu)
}

// lineBatch is a batch's responses, sent together once all are made.
type lineBatch struct {
	left      map[jsonrpc.ID]int // request id → its place in responses
	responses []*jsonrpc.Response
}

// errLineTooLong ends a session whose client sent a line over the cap (its
// newline not counted).
type errLineTooLong struct{ max int }

func (e errLineTooLong) Error() string {
	return fmt.Sprintf("a message line longer than %d bytes (the most tp mcp reads as one message); the session ends", e.max)
}

// readLoop reads lines until the input ends or the connection closes (a
// goroutine of its own, so that Close unblocks a Read waiting for input
// whatever the input is).
func (c *lineConn) readLoop(max int) {
	br := bufio.NewReaderSize(c.in, 64<<10)
	var long []byte
	for {
		line, err := readLine(br, &long, max)
		if line = bytes.TrimSpace(line); len(line) > 0 {
			msgs, batch, derr := decodeLine(line)
			if !c.deliver(lineRead{msgs: msgs, batch: batch, err: derr}) || derr != nil {
				return
			}
		}
		if err != nil {
			c.deliver(lineRead{err: err})
			return
		}
	}
}

func (c *lineConn) deliver(r lineRead) bool {
	select {
	case c.incoming <- r:
		return true
	case <-c.closed:
		return false
	}
}

// readLine reads one line, its newline included; the line is br's buffer
// or *long, valid until the next call. A line over max is an
// errLineTooLong; what was read of a last line without its newline comes
// with io.EOF.
func readLine(br *bufio.Reader, long *[]byte, max int) ([]byte, error) {
	b, err := br.ReadSlice('\n')
	if len(bytes.TrimRight(b, "\r\n")) > max {
		return nil, errLineTooLong{max}
	}
	if err != bufio.ErrBufferFull {
		return b, err
	}
	*long = append((*long)[:0], b...)
	if cap(*long) > 1<<20 {
		defer func() { *long = nil }() // a long line's memory is not kept for every line after it
	}
	for err == bufio.ErrBufferFull {
		b, err = br.ReadSlice('\n')
		*long = append(*long, b...)
		if len(bytes.TrimRight(*long, "\r\n")) > max {
			return nil, errLineTooLong{max}
		}
	}
	return *long, err
}

// decodeLine decodes one line: a message, or a batch of them.
func decodeLine(line []byte) (msgs []jsonrpc.Message, batch bool, err error) {
	if err := depthWithin(line, maxDepth); err != nil {
		return nil, false, err
	}
	if line[0] == '[' {
		var raws []json.RawMessage
		if err := decodeExact(line, &raws); err == nil {
			if len(raws) == 0 {
				return nil, true, errors.New("an empty JSON-RPC batch")
			}
			for _, raw := range raws {
				m, err := decodeMessage(raw)
				if err != nil {
					return nil, true, err
				}
				msgs = append(msgs, m)
			}
			return msgs, true, nil
		}
	}
	m, err := decodeMessage(line)
	return []jsonrpc.Message{m}, false, err
}

// wireMessage is a JSON-RPC message as read: the SDK's own wire shape.
type wireMessage struct {
	Version string          `json:"jsonrpc"`
	ID      any             `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *jsonrpc.Error  `json:"error"`
}

// decodeMessage decodes one message as the SDK's jsonrpc.DecodeMessage
// does (its decoder, exact member names, the same rules for the version,
// the id and the method), once.
func decodeMessage(b []byte) (jsonrpc.Message, error) {
	var w wireMessage
	if err := decodeExact(b, &w); err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	if w.Version != "2.0" {
		return nil, fmt.Errorf("invalid message version tag %q; expected %q", w.Version, "2.0")
	}
	id, err := jsonrpc.MakeID(w.ID)
	if err != nil {
		return nil, err
	}
	if len(w.Method) > 0 {
		var method string
		if err := decodeExact(w.Method, &method); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
		}
		return &jsonrpc.Request{ID: id, Method: method, Params: w.Params}, nil
	}
	if !id.IsValid() {
		return nil, errors.New("JSON RPC invalid request: a response without an id")
	}
	r := &jsonrpc.Response{ID: id, Result: w.Result}
	if w.Error != nil {
		r.Error = w.Error
	}
	return r, nil
}

// depthWithin refuses JSON nested deeper than max (outside strings).
func depthWithin(b []byte, max int) error {
	depth, in, esc := 0, false, false
	for _, c := range b {
		switch {
		case in:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				in = false
			}
		case c == '"':
			in = true
		case c == '{' || c == '[':
			if depth++; depth > max {
				return fmt.Errorf("a message nested deeper than %d", max)
			}
		case c == '}' || c == ']':
			depth--
		}
	}
	return nil
}

func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(c.queue) > 0 {
		m := c.queue[0]
		c.queue = c.queue[1:]
		return m, nil
	}
	var r lineRead
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.closed:
		return nil, io.EOF
	case r = <-c.incoming:
	}
	if r.err == io.EOF {
		c.drain(ctx)
		return nil, io.EOF
	}
	if r.err != nil {
		return nil, r.err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if r.batch {
		if c.version >= batchedUntil {
			return nil, fmt.Errorf("JSON-RPC batching is not supported in %s and later (this session's version: %s)", batchedUntil, c.version)
		}
		var b *lineBatch
		for _, m := range r.msgs {
			req, ok := m.(*jsonrpc.Request)
			if !ok || !req.IsCall() {
				continue
			}
			if b == nil {
				b = &lineBatch{left: map[jsonrpc.ID]int{}}
			}
			if _, dup := b.left[req.ID]; dup {
				return nil, fmt.Errorf("a batch holds the id %v twice", req.ID.Raw())
			}
			if _, dup := c.batches[req.ID]; dup {
				return nil, fmt.Errorf("a batch holds the id %v of a request still in flight", req.ID.Raw())
			}
			b.left[req.ID] = len(b.responses)
			b.responses = append(b.responses, nil)
		}
		if b != nil {
			if c.batches == nil {
				c.batches = map[jsonrpc.ID]*lineBatch{}
			}
			for id := range b.left {
				c.batches[id] = b
			}
		}
	}
	for _, m := range r.msgs {
		if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() {
			c.pending[req.ID] = struct{}{}
			if req.Method == "initialize" && c.initialize == nil && c.version == "" {
				id := req.ID
				c.initialize = &id
			}
		}
	}
	c.queue = r.msgs[1:]
	return r.msgs[0], nil
}

// drain waits, at the input's end, until every request read has its
// response written, or the session ends.
func (c *lineConn) drain(ctx context.Context) {
	c.mu.Lock()
	if len(c.pending) == 0 {
		c.mu.Unlock()
		return
	}
	c.idle = make(chan struct{})
	idle := c.idle
	c.mu.Unlock()
	select {
	case <-idle:
	case <-ctx.Done():
	case <-c.closed:
	}
}

func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	resp, isResp := msg.(*jsonrpc.Response)
	if !isResp {
		b, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			return fmt.Errorf("marshaling message: %v", err)
		}
		return c.writeLine(b)
	}
	c.mu.Lock()
	if c.initialize != nil && resp.ID == *c.initialize {
		c.initialize = nil
		var r struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if json.Unmarshal(resp.Result, &r) == nil {
			c.version = r.ProtocolVersion
		}
	}
	b, inBatch := c.batches[resp.ID]
	var done []*jsonrpc.Response
	if inBatch {
		delete(c.batches, resp.ID)
		b.responses[b.left[resp.ID]] = resp
		delete(b.left, resp.ID)
		if len(b.left) == 0 {
			done = b.responses
		}
	}
	c.mu.Unlock()
	var err error
	switch {
	case !inBatch:
		c.buf, err = appendResponse(c.buf[:0], resp)
		if err == nil {
			err = c.writeLine(c.buf)
		}
		c.answered(resp)
	case done != nil:
		c.buf = append(c.buf[:0], '[')
		for i, r := range done {
			if i > 0 {
				c.buf = append(c.buf, ',')
			}
			if c.buf, err = appendResponse(c.buf, r); err != nil {
				break
			}
		}
		if err == nil {
			err = c.writeLine(append(c.buf, ']'))
		}
		c.answered(done...)
	}
	if cap(c.buf) > 1<<20 {
		c.buf = nil // a large result's memory is not kept for every line after it
	}
	return err
}

// writeLine writes b and a newline; b's memory is the next line's.
func (c *lineConn) writeLine(b []byte) error {
	b = append(b, '\n')
	c.buf = b[:0]
	_, err := c.out.Write(b)
	return err
}

// answered marks requests as answered, and wakes a drain when none are left.
func (c *lineConn) answered(rs ...*jsonrpc.Response) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range rs {
		delete(c.pending, r.ID)
	}
	if len(c.pending) == 0 && c.idle != nil {
		close(c.idle)
		c.idle = nil
	}
}

// appendResponse appends r as jsonrpc.EncodeMessage writes it. A result is
// the SDK's own encoding/json output (compact, one line) and is copied as
// it is instead of being compacted again; an error, or an id that is a
// string, is the SDK's to encode.
func appendResponse(dst []byte, r *jsonrpc.Response) ([]byte, error) {
	id, isInt := r.ID.Raw().(int64)
	if r.Error != nil || len(r.Result) == 0 || !isInt || bytes.IndexByte(r.Result, '\n') >= 0 {
		b, err := jsonrpc.EncodeMessage(r)
		if err != nil {
			return dst, fmt.Errorf("marshaling message: %v", err)
		}
		return append(dst, b...), nil
	}
	dst = append(dst, `{"jsonrpc":"2.0","id":`...)
	dst = strconv.AppendInt(dst, id, 10)
	dst = append(dst, `,"result":`...)
	dst = append(dst, r.Result...)
	return append(dst, '}'), nil
}

func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		c.closeErr = errors.Join(c.in.Close(), c.out.Close())
		close(c.closed)
	})
	return c.closeErr
}

func (c *lineConn) SessionID() string { return "" }
