package main

// tp a2a's commands (TaskPack 0.1 §5, D23): their flags and help are the
// command tree's (cmd/cli), their work is here, where the A2A SDK is
// linked (D26).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	tpa2a "github.com/tp-dev/tp/a2a"
	"github.com/tp-dev/tp/a2a/server"
	"github.com/tp-dev/tp/cmd/cli"
	"github.com/tp-dev/tp/internal/sanitize"
	"github.com/tp-dev/tp/pack"
)

// runA2A runs tp a2a NAME with its flags.
func runA2A(name string, io *cli.IO, g *cli.Globals, args []string, o *cli.A2AOptions) error {
	switch name {
	case "card":
		return a2aCard(io, o)
	case "export":
		return a2aExport(io, args, o)
	case "import":
		return a2aImport(io, args, o)
	case "serve":
		return a2aServe(io, g, o)
	}
	return fmt.Errorf("tp a2a %s: no such command", name)
}

func printJSON(io *cli.IO, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(io.Out, "%s\n", b)
	return err
}

func a2aCard(io *cli.IO, o *cli.A2AOptions) error {
	maxPack := o.MaxPack
	return printJSON(io, tpa2a.Extension(maxPack))
}

func a2aExport(io *cli.IO, args []string, o *cli.A2AOptions) error {
	maxPack, maxPassport := o.MaxPack, o.MaxPassport
	t, err := tpa2a.Export(args[0], tpa2a.ExportOptions{MaxPackBytes: maxPack, Limits: pack.Limits{MaxCanonical: maxPassport}})
	if err != nil {
		return err
	}
	return printJSON(io, t)
}

func a2aImport(io *cli.IO, args []string, o *cli.A2AOptions) error {
	maxPack, out := o.MaxPack, o.Out
	t, err := tpa2a.ReadTask(args[0], tpa2a.MaxTaskBytes(maxPack))
	if err != nil {
		return err
	}
	fb, err := tpa2a.PackPartOfTask(t)
	if err != nil {
		var pe *pack.Error
		if errors.As(err, &pe) && pe.File == "" {
			pe.File = args[0]
		}
		return err
	}
	dir := "."
	if io.Getwd != nil {
		if wd, err := io.Getwd(); err == nil {
			dir = wd
		}
	}
	var dest func(pack.Encoding) string
	if out != "" {
		abs, err := filepath.Abs(out)
		if err != nil {
			return err
		}
		dir = filepath.Dir(abs)
		dest = func(pack.Encoding) string { return abs }
	} else {
		base := tpa2a.ImportBase(t, fb)
		dest = func(enc pack.Encoding) string { return filepath.Join(dir, base+tpa2a.Ext(enc)) }
	}
	k, err := tpa2a.Keep(fb, dir, dest, tpa2a.KeepOptions{MaxPackBytes: maxPack})
	if err != nil {
		var pe *pack.Error
		if errors.As(err, &pe) && pe.File == "the file part" {
			pe.File = args[0]
		}
		return err
	}
	fmt.Fprintf(io.Out, "wrote %s (%s, %d bytes, sha256 %s)\n", sanitize.Line(k.Path), k.Encoding, k.Bytes, k.Digest)
	return nil
}

func a2aServe(io *cli.IO, g *cli.Globals, o *cli.A2AOptions) error {
	maxPack, listen, tokenFile, url := o.MaxPack, o.Listen, o.TokenFile, o.URL
	addr := listen
	if addr == "" {
		addr = cli.DefaultA2AListen
	}
	token := ""
	if tokenFile != "" {
		b, err := os.ReadFile(tokenFile)
		if err != nil {
			return err
		}
		token = strings.TrimSpace(string(b))
		if len(token) < 16 || strings.ContainsAny(token, " \t\r\n") {
			return fmt.Errorf("%s: the token must be one line of at least 16 characters without spaces (D23)", tokenFile)
		}
	}
	if !loopback(addr) && token == "" {
		return cli.WithHint(fmt.Errorf("--listen %s is not a loopback address: a token is required beyond loopback (D23)", sanitize.Line(addr)),
			"pass --token-file FILE holding a long random token, e.g. openssl rand -hex 32 > FILE")
	}
	st, err := cli.OpenStore(io, g)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	endpoint := url
	if endpoint == "" {
		endpoint = "http://" + ln.Addr().String() + "/"
	}
	srv := server.New(server.Config{StoreDir: st.Dir(), MaxPackBytes: maxPack, Token: token, URL: endpoint, Version: cli.Version()})
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 5 * time.Minute,
		WriteTimeout: 5 * time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(io.Out, "tp a2a serve: listening on http://%s/ (agent card: http://%s/.well-known/agent-card.json); packs wait in %s\n",
		ln.Addr(), ln.Addr(), sanitize.Line(filepath.Join(st.Dir(), "incoming")))
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return hs.Shutdown(sctx)
}

// loopback reports whether a listen address is a loopback one.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
