package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tp-dev/tp/internal/filestamp"
	"github.com/tp-dev/tp/internal/ojson"
)

// Landed is where one passport of the store came from: its landed_from
// record (TaskPack 0.1 §5), or nil for a passport made on this machine.
type Landed struct {
	ID        string
	UpdatedAt string
	From      *ojson.Value
}

// LandedFrom returns every passport's landed_from record, in List's order
// (most recently updated first, ties by id), with the files List would
// skip. A landing asks it whether a pack was landed before.
//
// It is List without the parsing: the store remembers each file's record
// with the file's identity (inode, size, change time), and reads again only
// the files whose identity changed since. Every writer that replaces a
// passport by rename (tp, the reference) gives it a new inode; a file
// edited in place changes its change time. A file that changed within the
// filesystem's timestamp resolution of the moment it was looked at is
// read again next time, since a second change in that same tick would not
// show (git's "racily clean" rule). So a long-lived server (tp mcp) answers
// a dry-run land without reading every passport (issue 16).
//
// Nor does it look at every file each time: a passport saved by rename
// (every writer above) changes the store folder's own stamp, so while the
// folder's stamp is as it was, the last answer stands. Only an edit in
// place leaves the folder as it was; the files are looked at one by one
// again once refilesEvery has passed since they last were, so such an
// edit is seen within that time, and a save by rename at once.
func (s *Store) LandedFrom() ([]Landed, []Skipped, error) {
	c := &s.landed
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	// The folder's stamp is taken before it is read: a change meanwhile
	// then differs from what is remembered next time.
	ds, dsOK := filestamp.Of(s.dir)
	if c.answerOK && dsOK && ds == c.dir && !ds.Racy(now) && now.Sub(c.looked) < refilesEvery {
		return cloneLanded(c.answer), append([]Skipped(nil), c.skipped...), nil
	}
	c.answerOK = false
	des, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if c.files == nil {
		c.files = map[string]landedFile{}
	}
	c.scans++
	allKept := true
	seen := make(map[string]bool, len(des))
	var out []Landed
	var skipped []Skipped
	for _, de := range des {
		name := de.Name()
		id, ok := passportFile(de)
		if !ok {
			continue
		}
		seen[name] = true
		// The file's identity is taken before it is read: a file replaced
		// between the two then differs from what is remembered next time.
		st, ok := filestamp.Of(filepath.Join(s.dir, name))
		if cached, hit := c.files[name]; hit && ok && cached.stamp == st {
			cached.add(&out, &skipped)
			continue
		}
		f := s.readLanded(name, id)
		c.reads++
		if ok && !st.Racy(c.now()) {
			f.stamp = st
			c.files[name] = f
		} else {
			delete(c.files, name)
			allKept = false
		}
		f.add(&out, &skipped)
	}
	for name := range c.files {
		if !seen[name] {
			delete(c.files, name)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].UpdatedAt != out[j].UpdatedAt {
			return out[i].UpdatedAt > out[j].UpdatedAt
		}
		return out[i].ID < out[j].ID
	})
	// The answer stands for the next calls only when every file in it is
	// remembered and the folder did not change in the tick it was looked at.
	if dsOK && allKept && !ds.Racy(now) {
		c.answerOK, c.dir, c.looked = true, ds, now
		c.answer, c.skipped = out, skipped
		return cloneLanded(out), append([]Skipped(nil), skipped...), nil
	}
	return out, skipped, nil
}

// refilesEvery bounds how long LandedFrom trusts the store folder's stamp
// alone, without looking at each file: the delay before a passport edited
// in place (not replaced) by another program is seen.
const refilesEvery = time.Second

// cloneLanded copies an answer LandedFrom keeps, so callers never share
// the records it remembers (see landedFile.add).
func cloneLanded(ls []Landed) []Landed {
	out := make([]Landed, len(ls))
	for i, l := range ls {
		out[i] = l
		out[i].From = l.From.Clone()
	}
	return out
}

// landedCache is what LandedFrom remembers, per file name.
type landedCache struct {
	mu    sync.Mutex
	files map[string]landedFile
	// clock and reads are test seams: the wall clock the racy rule reads
	// (the files' own clock, never Store.Now), and a count of files read.
	clock func() time.Time
	reads int
	scans int // folders read: a test seam like reads

	// The last answer, while the store folder's stamp is dir and less
	// than refilesEvery has passed since looked (LandedFrom).
	answerOK bool
	dir      filestamp.Stamp
	looked   time.Time
	answer   []Landed
	skipped  []Skipped
}

func (c *landedCache) now() time.Time {
	if c.clock != nil {
		return c.clock()
	}
	return time.Now()
}

type landedFile struct {
	stamp   filestamp.Stamp
	landed  *Landed  // nil: removed while it was read
	skipped *Skipped // unreadable, as List reports it
}

// add appends what f holds to a LandedFrom answer. The record is a copy:
// an ojson value indexes its members on first read, so two callers
// reading one remembered value would race (TestConcurrentLandingsOfOneFile
// under -race).
func (f landedFile) add(out *[]Landed, skipped *[]Skipped) {
	switch {
	case f.skipped != nil:
		*skipped = append(*skipped, *f.skipped)
	case f.landed != nil:
		l := *f.landed
		l.From = l.From.Clone()
		*out = append(*out, l)
	}
}

// readLanded reads one passport file as List does and keeps only what
// LandedFrom returns, detached from the parsed state so the state itself
// is not kept.
func (s *Store) readLanded(name, id string) landedFile {
	st, err := readState(filepath.Join(s.dir, name), id)
	if err != nil {
		reason := strings.TrimPrefix(trimPath(err.Error(), s.dir), name+": ")
		return landedFile{skipped: &Skipped{File: name, Reason: reason}}
	}
	if st == nil {
		return landedFile{}
	}
	l := &Landed{ID: id, UpdatedAt: st.V.Get("updated_at").Text()}
	if from := st.V.Get("landed_from"); from != nil {
		l.From = from.Clone()
	}
	return landedFile{landed: l}
}
