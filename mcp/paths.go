package mcp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Every path a tool reads or writes is confined (D25): to the client's
// MCP roots when the client declares the roots capability, else to the
// server's working directory; the store is readable too (a landed
// passport's luggage lives there) but written only by tp itself. Whatever
// the roots, /proc, /sys and /dev are refused, and so are devices, FIFOs
// and sockets, wherever a link leads. A path is judged by what it resolves
// to (links followed, .. applied), and the resolved path is what the tool
// then uses.

// access is what a tool does with a path.
type access int

const (
	read  access = iota // read a file (or walk a folder: luggage)
	write               // create or replace a file or a new folder
)

// root is one folder a path may fall under.
type root struct {
	Path string // resolved, absolute
	From string // "client root", "working directory", "store"
}

// special are the trees a tool never touches, whatever the roots say: the
// kernel's views of processes and devices (reading /proc/self/environ is
// reading the server's secrets).
var special = []string{"/proc", "/sys", "/dev"}

// confiner holds each session's roots (asked once, asked again when the
// client says they changed).
type confiner struct {
	cwd   string
	store string // resolved

	mu    sync.Mutex
	roots map[*sdk.ServerSession][]root
}

func newConfiner(workDir, storeDir string) *confiner {
	c := &confiner{roots: map[*sdk.ServerSession][]root{}, cwd: workDir}
	if c.cwd == "" {
		c.cwd, _ = os.Getwd()
	}
	c.cwd, _ = filepath.Abs(c.cwd)
	if r, err := resolve(c.cwd); err == nil {
		c.cwd = r
	}
	if storeDir != "" {
		if abs, err := filepath.Abs(storeDir); err == nil {
			c.store = abs
			if r, err := resolve(abs); err == nil {
				c.store = r
			}
		}
	}
	return c
}

// forget drops a session's roots: the client changed them, or went away.
func (c *confiner) forget(ss *sdk.ServerSession) {
	c.mu.Lock()
	delete(c.roots, ss)
	c.mu.Unlock()
}

// allowed is the roots a path may fall under for a, for the session.
func (c *confiner) allowed(ctx context.Context, ss *sdk.ServerSession) ([]root, error) {
	base, err := c.base(ctx, ss)
	if err != nil {
		return nil, err
	}
	return base, nil
}

// base is the client's roots, or the working directory when the client
// declares none.
func (c *confiner) base(ctx context.Context, ss *sdk.ServerSession) ([]root, error) {
	if ss == nil || ss.InitializeParams() == nil || ss.InitializeParams().Capabilities == nil ||
		ss.InitializeParams().Capabilities.RootsV2 == nil {
		return []root{{Path: c.cwd, From: "working directory"}}, nil
	}
	c.mu.Lock()
	rs, ok := c.roots[ss]
	c.mu.Unlock()
	if ok {
		return rs, nil
	}
	//lint:ignore SA1019 the roots capability is what MCP 2025-06-18 clients declare
	res, err := ss.ListRoots(ctx, nil)
	if err != nil {
		return nil, &toolError{Code: codeRefused, Err: fmt.Errorf("the client declares roots but did not list them (%v); no path can be checked, so none is used", err)}
	}
	for _, r := range res.Roots {
		p, err := rootPath(r.URI)
		if err != nil {
			continue // not a folder on this machine: nothing falls under it
		}
		rs = append(rs, root{Path: p, From: "client root"})
	}
	if len(rs) == 0 {
		// A client with no roots open (no project) is treated as one that
		// declares none.
		rs = []root{{Path: c.cwd, From: "working directory"}}
	}
	c.mu.Lock()
	c.roots[ss] = rs
	c.mu.Unlock()
	return rs, nil
}

// rootPath is a file:// root URI as a resolved folder.
func rootPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || !filepath.IsAbs(u.Path) {
		return "", fmt.Errorf("root %q is not a file:// folder", uri)
	}
	return resolve(filepath.Clean(u.Path))
}

// resolve is path with every link followed; for a path that does not
// exist yet, its nearest existing parent is resolved and the rest joined.
func resolve(path string) (string, error) {
	r, err := filepath.EvalSymlinks(path)
	if err == nil {
		return r, nil
	}
	if _, lerr := os.Lstat(path); lerr == nil {
		// It exists but does not resolve (a dangling link): judge the link
		// itself, which is what a rename replaces.
		parent, err := resolve(filepath.Dir(path))
		if err != nil {
			return "", err
		}
		return filepath.Join(parent, filepath.Base(path)), nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	dir := filepath.Dir(path)
	if dir == path {
		return path, nil
	}
	parent, err := resolve(dir)
	if err != nil {
		return "", err
	}
	return filepath.Join(parent, filepath.Base(path)), nil
}

// within reports whether path is dir or under it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// check confines one path a tool was given (the argument named what) and
// returns it resolved, or a refusal naming the rule and the roots.
func (c *confiner) check(ctx context.Context, ss *sdk.ServerSession, what, path string, a access) (string, error) {
	if strings.TrimSpace(path) == "" {
		return "", &toolError{Code: codeInvalid, Err: fmt.Errorf("arguments: %s is empty", what)}
	}
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(c.cwd, path)
	}
	abs = filepath.Clean(abs)
	res, err := resolve(abs)
	if err != nil {
		return "", &toolError{Code: codeRefused, Err: fmt.Errorf("%s %s: %v", what, abs, err)}
	}
	refuse := func(format string, args ...any) error {
		return &toolError{Code: codeRefused, Rule: "confined paths (D25)", Err: fmt.Errorf("%s %s: "+format, append([]any{what, abs}, args...)...)}
	}
	for _, sp := range special {
		if within(res, sp) || within(abs, sp) {
			return "", refuse("refused: %s is never read or written through tp mcp (D25)", sp)
		}
	}
	if info, err := os.Stat(res); err == nil && !info.Mode().IsRegular() && !info.IsDir() {
		return "", refuse("refused: %s is a device, a FIFO or a socket, never a file a tool reads or writes (D25)", res)
	}
	roots, err := c.allowed(ctx, ss)
	if err != nil {
		return "", err
	}
	if c.store != "" && within(res, c.store) {
		if a == write {
			return "", refuse("refused: it is inside the store (%s), which only tp itself writes (D25)", c.store)
		}
		return res, nil
	}
	for _, r := range roots {
		if within(res, r.Path) {
			return res, nil
		}
	}
	var names []string
	for _, r := range roots {
		names = append(names, r.From+" "+r.Path)
	}
	if a == read && c.store != "" {
		names = append(names, "store "+c.store)
	}
	shown := ""
	if res != abs {
		shown = " (it resolves to " + res + ")"
	}
	return "", refuse("refused: outside every allowed root%s: %s (D25)", shown, strings.Join(names, ", "))
}

// checkAll confines every path of a list argument.
func (c *confiner) checkAll(ctx context.Context, ss *sdk.ServerSession, what string, paths []string, a access) ([]string, error) {
	out := make([]string, 0, len(paths))
	for i, p := range paths {
		r, err := c.check(ctx, ss, fmt.Sprintf("%s[%d]", what, i), p, a)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
