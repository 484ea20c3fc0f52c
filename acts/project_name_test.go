package acts

import (
	"testing"
)

// The project-name rule is the core's (issue 15): every record written,
// whichever front end names the project, and every sync (the record log's
// side: recordlog's TestWriteAllChecksProjectName).
func TestProjectNameRule(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"demo", true}, {"Mein Projekt", true}, {"项目", true}, {"a.b-c_d", true},
		{"", false}, {" demo", false}, {"demo ", false}, {"a/b", false}, {`a\b`, false},
		{"demo\nevil", false}, {"demo\r", false}, {"de\x00mo", false}, {"de\x1b[31mmo", false},
		{"demo\u2028x", false}, {"demo\u0085x", false}, {"de\x7fmo", false},
	} {
		err := CheckProjectName(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("CheckProjectName(%q) = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}
