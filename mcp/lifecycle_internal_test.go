package mcp

import (
	"encoding/json"
	"testing"
)

// counted is what the lifecycle counts of a message: a request (an id and
// a method) and a response (an id, no method, a result or an error).
func counted(m message) (request, response bool) {
	return len(m.ID) > 0 && m.Method != "", len(m.ID) > 0 && m.Method == "" && (len(m.Result) > 0 || len(m.Error) > 0)
}

// messageLines are lines a client or the server may write, and lines made
// to confuse a reader that looks for members by their text.
var messageLines = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"task_passport_open","arguments":{"passport_id":"TP-1"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"id\":2,\"method\":\"x\"}"}],"structuredContent":{"id":"TP-1"}}}`,
	`{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"no"}}`,
	`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`,
	`{"jsonrpc":"2.0","id":3,"result":null}`,
	`{"jsonrpc":"2.0","id":4,"method":null}`,
	`{"jsonrpc":"2.0","id":4,"method":7}`,
	`{"jsonrpc":"2.0","id":4,"method":""}`,
	`{"jsonrpc":"2.0","\u0069d":5,"m\u0065thod":"ping"}`,
	`{"jsonrpc":"2.0","id":6,"method":"p\u0069ng"}`,
	`{"jsonrpc":"2.0","id":7,"method":"a","method":null}`,
	`{"params":{"id":8,"method":"nested"},"result":[1,{"id":9}],"x":"}{]["}`,
	`{"id": 10 , "method" : "spaced" , "result" : { } }`,
	`{"id":11,"result":"a \\\" quote } and \\\\"}`,
	`{"id":12,"result":1e5,"error":false}`,
	`{}`,
	`null`,
	`"a string"`,
	`7`,
	`{"id":13,"method":"cut`,
	`{"id":14,"method":"x",}`,
	`{"id":15 "method":"x"}`,
	`{"id":16,"method":"x"} trailing`,
	`{"id":17,"method":"é"}`,
	`{"id":[1,2],"method":{"a":1}}`,
}

// FuzzReadMessage: readMessage reads every line as json.Unmarshal reads it
// into message (the lifecycle's count would drift from the requests the
// SDK answers otherwise), for the client's lines (checked) and, where the
// line is well-formed, the server's.
func FuzzReadMessage(f *testing.F) {
	for _, l := range messageLines {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var want message
		wantOK := json.Unmarshal(line, &want) == nil
		got, ok := readMessage(line, true)
		if ok != wantOK {
			t.Fatalf("%s: read %v, json.Unmarshal %v", line, ok, wantOK)
		}
		if !ok {
			return
		}
		wr, wresp := counted(want)
		gr, gresp := counted(got)
		if wr != gr || wresp != gresp {
			t.Fatalf("%s: request/response %v/%v, json.Unmarshal says %v/%v", line, gr, gresp, wr, wresp)
		}
		if unchecked, ok := readMessage(line, false); ok {
			if ur, uresp := counted(unchecked); ur != wr || uresp != wresp {
				t.Fatalf("%s unchecked: request/response %v/%v, want %v/%v", line, ur, uresp, wr, wresp)
			}
		} else if json.Valid(line) {
			t.Fatalf("%s: a well-formed object not read unchecked", line)
		}
	})
}

// TestScanLinesAcrossWrites: a line split across writes is counted once,
// when it is whole, and what is left is kept apart from the caller's
// buffer.
func TestScanLinesAcrossWrites(t *testing.T) {
	line := []byte(`{"jsonrpc":"2.0","id":1,"result":{"a":"b"}}` + "\n" + `{"jsonrpc":"2.0","id":2,"result":{}}` + "\n")
	for cut := 0; cut <= len(line); cut++ {
		n := 0
		count := func(m message) {
			if _, resp := counted(m); resp {
				n++
			}
		}
		first := append([]byte{}, line[:cut]...)
		rest := scanMore(nil, first, false, count)
		for i := range first {
			first[i] = 'x' // the caller reuses its buffer
		}
		rest = scanMore(rest, append([]byte{}, line[cut:]...), false, count)
		if n != 2 || len(rest) != 0 {
			t.Fatalf("cut at %d: %d responses counted, %q left", cut, n, rest)
		}
	}
}
