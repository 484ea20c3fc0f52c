//go:build !linux

package store

// No inotify here: a watched store looks at its folder as an unwatched one
// does (Store.Watch).

type dirSub struct{}

type dirChanges struct {
	names      []string
	seen       bool
	lost, gone bool
}

func watchDir(string) *dirSub { return nil }

func (*dirSub) take() dirChanges { return dirChanges{lost: true} }
