package mcp

import (
	"encoding/json"
	"testing"
)

// TestLabelled: a result gets data_notice at its top unless its top has
// one; a data_notice inside a quoted document (a state, a sender's text)
// does not stand for the result's own label (TaskPack 0.1 §4.5).
func TestLabelled(t *testing.T) {
	notice, _ := json.Marshal(DataNotice)
	n := string(notice)
	for _, c := range []struct{ in, want string }{
		{`{}`, `{"data_notice":` + n + `}`},
		{`{"a":1}`, `{"a":1,"data_notice":` + n + `}`},
		{`{"data_notice":"own"}`, `{"data_notice":"own"}`},
		{`{"a":[1],"data_notice":"own","b":{}}`, `{"a":[1],"data_notice":"own","b":{}}`},
		{`{"state":{"data_notice":"the sender's"}}`, `{"state":{"data_notice":"the sender's"},"data_notice":` + n + `}`},
		{`{"text":"\",\"data_notice\":\"x"}`, `{"text":"\",\"data_notice\":\"x","data_notice":` + n + `}`},
		{`{"list":[{"data_notice":"x"}]}`, `{"list":[{"data_notice":"x"}],"data_notice":` + n + `}`},
		{`null`, `null`},
		{`[{"a":1}]`, `[{"a":1}]`},
	} {
		got := string(labelled([]byte(c.in)))
		if got != c.want {
			t.Errorf("labelled(%s) = %s, want %s", c.in, got, c.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("labelled(%s) is not JSON: %s", c.in, got)
		}
	}
}
