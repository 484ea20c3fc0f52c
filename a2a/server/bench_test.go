package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
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

// BenchmarkFloorSend10MB is the yardstick for BenchmarkSendMessage10MB,
// run in the same `go test -bench` command: the same JSON-RPC body (the
// pack base64-encoded in a message/send request) POSTed over the same
// loopback to a handler that does only the unavoidable work — decode the
// JSON and the base64, hash the pack and write it to a file with fsync.
func BenchmarkFloorSend10MB(b *testing.B) {
	dir := b.TempDir()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Params struct {
				Message struct {
					Parts []struct {
						File struct {
							Bytes string `json:"bytes"`
						} `json:"file"`
					} `json:"parts"`
				} `json:"message"`
			} `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Params.Message.Parts) != 1 {
			http.Error(w, "bad", 400)
			return
		}
		raw, err := base64.StdEncoding.DecodeString(req.Params.Message.Parts[0].File.Bytes)
		if err != nil {
			http.Error(w, "bad", 400)
			return
		}
		sum := sha256.Sum256(raw)
		f, err := os.CreateTemp(dir, "p")
		if err == nil {
			_, err = f.Write(raw)
		}
		if err == nil {
			err = f.Sync()
		}
		if f != nil {
			f.Close()
		}
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":"1","result":{"sha256":"%x"}}`, sum)
	}))
	defer ts.Close()
	bodies := make([][]byte, b.N)
	for i := range bodies {
		raw := benchPack(b, "TP-FLOOR-"+strconv.Itoa(i), 10<<20)
		bodies[i] = []byte(`{"jsonrpc":"2.0","id":"1","method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"file","file":{"mimeType":"` + tpa2a.MediaBag + `","name":"p.taskpack","bytes":"` + base64.StdEncoding.EncodeToString(raw) + `"}}]}}}`)
	}
	b.SetBytes(int64(10 << 20))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		resp, err := http.Post(ts.URL+"/", "application/json", bytes.NewReader(bodies[i]))
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatal(resp.Status)
		}
	}
}
