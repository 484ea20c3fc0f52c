package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
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
// skip. A landing asks it whether a pack was landed before (EachLanded,
// without the copies).
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
//
// A watched store (Watch) looks at only the files the kernel says changed.
func (s *Store) LandedFrom() ([]Landed, []Skipped, error) {
	c := &s.landed
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.look(s); err != nil {
		return nil, nil, err
	}
	return cloneLanded(c.answer), append([]Skipped(nil), c.skipped...), nil
}

// EachLanded calls fn with each record LandedFrom would return, in its
// order, until fn returns false, and returns the files skipped. The
// records are the store's own, not copies: fn must not change them or keep
// them past its return, and must not call back into the store's look-ups
// of landed_from (fn runs under their lock).
func (s *Store) EachLanded(fn func(Landed) bool) ([]Skipped, error) {
	c := &s.landed
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.look(s); err != nil {
		return nil, err
	}
	for _, l := range c.answer {
		if !fn(l) {
			break
		}
	}
	return append([]Skipped(nil), c.skipped...), nil
}

// Watch makes the store follow its folder's changes as the kernel reports
// them (inotify, on Linux), for a process that asks it what was landed
// before again and again (tp mcp): a look then reads only the files named
// in a change, instead of looking at every passport whenever the folder
// changed. It reports whether the folder is watched; where it cannot be
// (another system, the kernel's limit), the store looks as it did.
//
// The kernel's word replaces the racy rule for the files it names: a
// change after a file was read is another event, so the file is read
// again. What the kernel does not report — a change made by another
// machine on a network filesystem, a write through a memory map — is
// caught as an unwatched store catches it: a folder whose stamp changed
// with no event since is looked at whole, and every file is looked at
// again at least once a refilesEvery.
func (s *Store) Watch() bool {
	c := &s.landed
	c.mu.Lock()
	defer c.mu.Unlock()
	c.watching = true
	c.subscribe(s)
	return c.sub != nil
}

// Watching reports whether the folder is watched now (Watch).
func (s *Store) Watching() bool {
	c := &s.landed
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sub != nil
}

// subscribe watches the folder if it is not yet watched. The next look is
// then a whole one, made after the watch began, so a change during it is
// an event for the look after.
func (c *landedCache) subscribe(s *Store) {
	if c.sub == nil {
		if c.sub = watchDir(s.dir); c.sub != nil {
			c.answerOK = false
		}
	}
}

// look brings c.answer and c.skipped up to date with the folder.
func (c *landedCache) look(s *Store) error {
	now := c.now()
	if c.watching {
		c.subscribe(s)
	}
	// The folder's stamp is taken before it is read: a change meanwhile
	// then differs from what is remembered next time.
	ds, dsOK := filestamp.Of(s.dir)
	if c.sub != nil {
		ch := c.sub.take()
		switch {
		case ch.gone:
			c.sub, c.answerOK = nil, false // watched again at the next look
		case ch.lost:
			c.answerOK = false
		case c.answerOK && dsOK && now.Sub(c.looked) < refilesEvery && (ds == c.dir || ch.seen):
			// The folder changed only as the events say (a folder whose
			// stamp moved with no event was changed elsewhere: looked at
			// whole, below).
			c.refresh(s, ch.names)
			c.dir = ds
			return nil
		}
	}
	if c.answerOK && dsOK && ds == c.dir && !ds.Racy(now) && now.Sub(c.looked) < refilesEvery {
		return nil
	}
	c.answerOK = false
	des, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		c.answer, c.skipped = nil, nil
		return nil
	}
	if err != nil {
		return err
	}
	if c.files == nil {
		c.files = map[string]landedFile{}
	}
	c.scans++
	allKept := true
	seen := make(map[string]bool, len(des))
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
			continue
		}
		f := s.readLanded(name, id)
		c.reads++
		f.stamp = st
		c.files[name] = f
		if !ok || (c.sub == nil && st.Racy(c.now())) {
			// Not remembered past this answer: read again next time.
			f.stamp = filestamp.Stamp{}
			c.files[name] = f
			allKept = false
		}
	}
	for name := range c.files {
		if !seen[name] {
			delete(c.files, name)
		}
	}
	c.answer, c.skipped = c.files.collect()
	// The answer stands for the next calls only when every file in it is
	// remembered and the folder did not change in the tick it was looked
	// at (for a watched folder, the events say what changed after).
	if dsOK && allKept && (c.sub != nil || !ds.Racy(now)) {
		c.answerOK, c.dir, c.looked = true, ds, now
	}
	return nil
}

// refresh reads again the passport files among names, the names a watch
// reported changed, and puts each in the answer in its place.
func (c *landedCache) refresh(s *Store, names []string) {
	for _, name := range names {
		id, ok := passportName(name)
		if !ok {
			continue
		}
		if old, ok := c.files[name]; ok {
			c.answer, c.skipped = old.remove(c.answer, c.skipped)
			delete(c.files, name)
		}
		p := filepath.Join(s.dir, name)
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue // removed, or no longer a passport file
		}
		f := s.readLanded(name, id)
		c.reads++
		f.stamp, _ = filestamp.OfInfo(fi)
		c.files[name] = f
		c.answer, c.skipped = f.insert(c.answer, c.skipped)
	}
}

// refilesEvery bounds how long LandedFrom trusts the store folder's stamp
// alone, without looking at each file: the delay before a passport edited
// in place (not replaced) by another program is seen.
const refilesEvery = time.Second

// cloneLanded copies an answer LandedFrom keeps, so callers never share
// the records it remembers: an ojson value indexes its members on first
// read, so two callers reading one remembered value would race
// (TestConcurrentLandingsOfOneFile under -race).
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
	files landedFiles
	// clock and reads are test seams: the wall clock the racy rule reads
	// (the files' own clock, never Store.Now), and a count of files read.
	clock func() time.Time
	reads int
	scans int // folders read: a test seam like reads

	// The last answer, which stands while the store folder's stamp is
	// dir and less than refilesEvery has passed since looked (answerOK),
	// or, watched (sub), while the events say what changed since.
	answerOK bool
	dir      filestamp.Stamp
	looked   time.Time
	answer   []Landed
	skipped  []Skipped

	watching bool    // Watch was called
	sub      *dirSub // the folder's changes, while it is watched
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

// landedFiles is what LandedFrom remembers, by file name.
type landedFiles map[string]landedFile

// collect is the answer the files make: the records in List's order, the
// unreadable files by name.
func (fs landedFiles) collect() ([]Landed, []Skipped) {
	var out []Landed
	var skipped []Skipped
	for _, f := range fs {
		switch {
		case f.skipped != nil:
			skipped = append(skipped, *f.skipped)
		case f.landed != nil:
			out = append(out, *f.landed)
		}
	}
	slices.SortFunc(out, listOrder)
	slices.SortFunc(skipped, byFile)
	return out, skipped
}

// listOrder is List's: most recently updated first, ties by id (ids are
// unique in a folder, so no two records tie).
func listOrder(a, b Landed) int {
	if c := strings.Compare(b.UpdatedAt, a.UpdatedAt); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

func byFile(a, b Skipped) int { return strings.Compare(a.File, b.File) }

// insert puts what f holds in its place in an answer kept in collect's
// order; remove takes it out.
func (f landedFile) insert(out []Landed, skipped []Skipped) ([]Landed, []Skipped) {
	switch {
	case f.skipped != nil:
		i, _ := slices.BinarySearchFunc(skipped, *f.skipped, byFile)
		skipped = slices.Insert(skipped, i, *f.skipped)
	case f.landed != nil:
		i, _ := slices.BinarySearchFunc(out, *f.landed, listOrder)
		out = slices.Insert(out, i, *f.landed)
	}
	return out, skipped
}

func (f landedFile) remove(out []Landed, skipped []Skipped) ([]Landed, []Skipped) {
	switch {
	case f.skipped != nil:
		if i, ok := slices.BinarySearchFunc(skipped, *f.skipped, byFile); ok {
			skipped = slices.Delete(skipped, i, i+1)
		}
	case f.landed != nil:
		if i, ok := slices.BinarySearchFunc(out, *f.landed, listOrder); ok {
			out = slices.Delete(out, i, i+1)
		}
	}
	return out, skipped
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
