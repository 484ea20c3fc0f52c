package actsession

import "testing"

// logFile names the files of the log Commit adds even when an ignore rule
// says otherwise (D20): tp's own, never a lock or a writer's temporary file.
func TestLogFile(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"demo/records/s~3ax.json", true},
		{"demo/acked/s~3ax", true},
		{"demo/principals/p~3a1.json", true},
		{"demo/allowed_signers", true},
		{"demo/records/.tmp-1-2-x.json", false},
		{"demo/acked/.tmp-1-2-x", false},
		{"demo/.registrar.lock", false},
		{"demo/records/x.txt", false},
		{"demo/records/sub/x.json", false},
		{"demo/.gitignore", false},
		{".gitignore", false},
		{"Demo/records/x.json", false}, // not a name tp writes for a project
		{"demo/notes.md", false},
	} {
		if got := logFile(tc.path); got != tc.want {
			t.Errorf("logFile(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}
