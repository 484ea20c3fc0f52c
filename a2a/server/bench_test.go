package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http/httptest"
	"strconv"
	"testing"

	sdk "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"

	tpa2a "github.com/tp-dev/tp/a2a"
	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/internal/packtest"
)

// benchPack writes a pack of about n bytes of random (incompressible)
// luggage whose root id is root.
func benchPack(b *testing.B, root string, n int) []byte {
	b.Helper()
	obj := packtest.Mutate(b, func(o *ojson.Value) {
		o.Get("lineage").Set("root_id", ojson.NewString(root))
	})
	data := make([]byte, n)
	rand.Read(data)
	raw := packtest.RawBag(b, ojson.Canonical(obj), []packtest.File{{Name: "big.bin", Data: data}}, nil)
	return raw
}

func newBenchServer(b *testing.B) (*a2aclient.Client, func()) {
	b.Helper()
	srv := New(Config{StoreDir: b.TempDir()})
	ts := httptest.NewServer(srv.Handler())
	c, err := a2aclient.NewFromEndpoints(context.Background(), []sdk.AgentInterface{{Transport: sdk.TransportProtocolJSONRPC, URL: ts.URL + "/"}})
	if err != nil {
		b.Fatal(err)
	}
	return c, ts.Close
}

func send(b *testing.B, c *a2aclient.Client, raw []byte) *sdk.Task {
	part := sdk.FilePart{File: sdk.FileBytes{FileMeta: sdk.FileMeta{MimeType: tpa2a.MediaBag, Name: "p.taskpack"}, Bytes: base64.StdEncoding.EncodeToString(raw)}}
	res, err := c.SendMessage(context.Background(), &sdk.MessageSendParams{Message: sdk.NewMessage(sdk.MessageRoleUser, part)})
	if err != nil {
		b.Fatal(err)
	}
	t, ok := res.(*sdk.Task)
	if !ok || t.Status.State != sdk.TaskStateInputRequired {
		b.Fatalf("%T %v", res, res)
	}
	return t
}

// BenchmarkSendMessage10MB is message/send of a 10 MB pack over loopback
// HTTP: base64 in JSON-RPC, decoded as a stream, opened under D10, kept.
// Each iteration sends a different pack (a new root id).
func BenchmarkSendMessage10MB(b *testing.B) {
	c, stop := newBenchServer(b)
	defer stop()
	packs := make([][]byte, b.N)
	for i := range packs {
		packs[i] = benchPack(b, "TP-BENCH-"+strconv.Itoa(i), 10<<20)
	}
	b.SetBytes(int64(len(packs[0])))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		send(b, c, packs[i])
	}
}

// BenchmarkGetTask is tasks/get of a kept pack (small luggage): the
// incoming folder read, the pack opened for its verdict.
func BenchmarkGetTask(b *testing.B) {
	c, stop := newBenchServer(b)
	defer stop()
	t := send(b, c, benchPack(b, "TP-BENCH-GET", 1<<10))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		got, err := c.GetTask(context.Background(), &sdk.TaskQueryParams{ID: t.ID})
		if err != nil || got.Status.State != sdk.TaskStateInputRequired {
			b.Fatal(got, err)
		}
	}
}
