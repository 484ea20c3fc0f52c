package mcp

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/tp-dev/tp/internal/store"
)

// BenchmarkFirstToolsList times the first tools/list a fresh server
// answers after initialize (issue 12: within 20 ms), in process over
// pipes, so the figure is the server's own work without a process start.
// The server's construction and the initialize exchange are not timed.
func BenchmarkFirstToolsList(b *testing.B) {
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := New(Config{Store: st, Log: io.Discard})
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		go s.Run(ctx, inR, outW)
		rd := bufio.NewReader(outR)
		send := func(m string) {
			if _, err := inW.Write([]byte(m + "\n")); err != nil {
				b.Fatal(err)
			}
		}
		send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
		if _, err := rd.ReadString('\n'); err != nil {
			b.Fatal(err)
		}
		send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		b.StartTimer()
		send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		line, err := rd.ReadString('\n')
		b.StopTimer()
		if err != nil || !strings.Contains(line, `"task_passport_list"`) {
			b.Fatalf("tools/list: %v %.200s", err, line)
		}
		cancel()
		inW.Close()
		outR.Close()
		b.StartTimer()
	}
}
