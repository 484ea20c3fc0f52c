package landing

// Extracting a pack's luggage into its new folder (D10): one temporary
// folder, files written through os.Root, made durable with one batch
// (internal/durable), then renamed into place.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tp-dev/tp/internal/durable"
	"github.com/tp-dev/tp/internal/owner"
	"github.com/tp-dev/tp/internal/store"
	"github.com/tp-dev/tp/pack"
	"github.com/tp-dev/tp/pack/scan"
)

// luggageErr is a failed read of luggage l: a *pack.Error (a digest or
// CRC that does not match, a cut stream) names the pack, the entry and the
// rule already and is returned as it is; anything else is wrapped.
func luggageErr(l pack.Luggage, err error) error {
	var pe *pack.Error
	if errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("luggage %s: %w", l.Name, err)
}

// namePack fills in the pack a luggage refusal came from, for the
// refusals made here (sizes that do not match), which know only the entry.
func namePack(err error, file string) error {
	var pe *pack.Error
	if errors.As(err, &pe) && pe.File == "" {
		pe.File = file
	}
	return err
}

// extract streams every luggage file into a fresh temporary folder beside
// dest and renames it to dest when all of them are written, synced and
// match their digests. The folder is opened as an os.Root, so no name can
// reach outside it; files are created exclusively (a name twice, or a link
// planted meanwhile, fails) with mode 0644: no execute bits. On any error or
// cancellation the temporary folder is removed and dest is never created.
//
// landAs names the files that land under another name (Plan.landAs: a
// repository's metadata, disarmed, D10-git), so what is written is what
// the plan showed.
func extract(ctx context.Context, luggage []pack.Luggage, landAs map[string]string, open func(string) (io.ReadCloser, error), dest string, progress func(done, total int64)) (names []string, found luggageFindings, err error) {
	if _, err := os.Lstat(dest); err == nil {
		return nil, luggageFindings{}, fmt.Errorf("luggage folder %s already exists; not writing into it", dest)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, luggageFindings{}, err
	}
	parent := filepath.Dir(dest)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, luggageFindings{}, err
	}
	tmp := filepath.Join(parent, "."+filepath.Base(dest)+landingSuffix+owner.Tag()+"-"+randHex(6))
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return nil, luggageFindings{}, err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	root, err := os.OpenRoot(tmp)
	if err != nil {
		return nil, luggageFindings{}, err
	}
	defer root.Close()

	var total int64
	for _, l := range luggage {
		total += l.Size
	}
	if progress != nil {
		progress(0, total)
	}
	// Folders first (on one goroutine), then the files on a few workers:
	// inflating, verifying and writing one file overlaps with the next.
	dirs := map[string]bool{}
	folders := map[string]*os.Root{".": root}
	// Many small files: each folder also open as a file, for createIn.
	batch := durable.NewBatch(len(luggage))
	var dirFiles map[string]*folderFile
	if rawCreate && batch.FlushOnce() {
		// The top folder too: a pack's luggage is often all there.
		top, err := os.Open(tmp)
		if err != nil {
			return nil, luggageFindings{}, err
		}
		dirFiles = map[string]*folderFile{".": newFolderFile(top)}
	}
	defer func() {
		for d, r := range folders {
			if d != "." {
				r.Close()
			}
		}
		for _, f := range dirFiles {
			f.f.Close()
		}
	}()
	local := make([]string, len(luggage))
	for i, l := range luggage {
		on := l.Name
		if as, ok := landAs[on]; ok {
			on = as
		}
		name, err := luggageName(on)
		if err != nil {
			return nil, luggageFindings{}, err
		}
		local[i] = name
		for d := path.Dir(name); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
		// One mkdir and one open per folder, not per file: each file is
		// then created with one openat in its folder.
		if d := path.Dir(name); folders[d] == nil {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return nil, luggageFindings{}, fmt.Errorf("luggage %s: %w", l.Name, err)
			}
			sub, err := root.OpenRoot(d)
			if err != nil {
				return nil, luggageFindings{}, fmt.Errorf("luggage %s: %w", l.Name, err)
			}
			folders[d] = sub
			if dirFiles != nil {
				df, err := root.Open(d)
				if err != nil {
					return nil, luggageFindings{}, fmt.Errorf("luggage %s: %w", l.Name, err)
				}
				dirFiles[d] = newFolderFile(df)
			}
		}
	}

	outer := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := min(runtime.GOMAXPROCS(0), len(luggage), 4)
	side := newSideScan(4*workers, 1<<20)
	defer side.stop()
	var (
		mu       sync.Mutex
		done     int64
		firstErr error
		wg       sync.WaitGroup
	)
	step := func(n int64) {
		mu.Lock()
		done += n
		if progress != nil {
			progress(done, total)
		}
		mu.Unlock()
	}
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	// Many small files: one flush at the end beats an fsync each (batch,
	// above).
	scanners := make([]*scan.LuggageScanner, len(luggage))
	// A scan looking inside a gzip runs a goroutine until Findings: finish
	// every scan, also when the landing fails (issue 18; small edit in
	// landing's extract for judgesign's scan).
	defer func() {
		for _, sc := range scanners {
			if sc != nil {
				sc.Findings()
			}
		}
	}()
	// The workers take the files in runs of smallRun by a shared counter:
	// no goroutine hands them out, so none is woken per file. A worker
	// reads and verifies a run's small files first, then creates those of
	// one folder under one hold of its lock (smallRunFiles.create): the other worker
	// reads its run meanwhile, and they meet on the lock once a run, not
	// once a file (issue 20: on ext4 each meeting woke a thread).
	var next atomic.Int64
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			small := make([]byte, smallLuggage+1)
			run := &smallRunFiles{}
			for {
				start := int(next.Add(smallRun) - smallRun)
				if start >= len(luggage) || ctx.Err() != nil {
					return
				}
				for i := start; i < min(start+smallRun, len(luggage)); i++ {
					scanners[i] = scan.NewLuggageScanner(luggage[i].Name)
					var err error
					d := path.Dir(local[i])
					dir, base := folders[d], path.Base(local[i])
					switch l := luggage[i]; {
					case l.Size > 0 && l.Size <= smallLuggage && dirFiles[d] != nil:
						err = run.add(ctx, dirFiles[d], base, l, open, scanners[i], step)
					case l.Size > 0 && l.Size <= smallLuggage:
						err = extractSmall(ctx, dir, base, l, open, small, scanners[i], batch, step)
						scanners[i].Findings() // see smallRunFiles.add
					default:
						_, err = extractOne(ctx, dir, base, l, open, side, scanners[i], batch, step)
					}
					if err != nil {
						fail(err)
						return
					}
				}
				if err := run.create(step); err != nil {
					fail(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	side.wait()
	// A cancellation from outside is reported as such, not as whatever
	// error it caused in a worker.
	if err := outer.Err(); err != nil {
		return nil, luggageFindings{}, err
	}
	if firstErr != nil {
		return nil, luggageFindings{}, firstErr
	}
	names = make([]string, 0, len(luggage))
	for i, sc := range scanners {
		found.add(sc)
		names = append(names, filepath.Join(dest, filepath.FromSlash(local[i])))
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, luggageFindings{}, err
	}
	for d := range dirs {
		batch.Dir(filepath.Join(tmp, filepath.FromSlash(d)))
	}
	batch.Dir(tmp)
	if err := batch.Commit(); err != nil {
		return nil, luggageFindings{}, fmt.Errorf("luggage: %w", err)
	}
	// The temporary folder is ours and fresh; dest was checked absent above,
	// and rename(2) refuses a non-empty folder appearing there meanwhile.
	if _, err := os.Lstat(dest); err == nil {
		return nil, luggageFindings{}, fmt.Errorf("luggage folder %s appeared while landing; not replacing it", dest)
	}
	if err := durable.Rename(tmp, dest); err != nil {
		return nil, luggageFindings{}, err
	}
	ok = true
	sort.Strings(names)
	return names, found, nil
}

// writebackEvery is how many bytes of a luggage file are written before the
// kernel is asked to start putting them on disk (durable.StartWriteback).
const writebackEvery = 8 << 20

// smallLuggage is the size up to which a luggage file is read whole,
// scanned and written on the worker itself: for packs of many small files
// the hand-offs to the scanning goroutine cost more than the work.
const smallLuggage = 64 << 10

// readSmall reads luggage l, at most smallLuggage bytes, into buf (which
// holds l.Size+1 bytes at least) and returns it, verified: one byte past the
// size is asked for, so the reader checks the digest when it reaches the
// end, and a longer file shows itself.
func readSmall(ctx context.Context, l pack.Luggage, open func(string) (io.ReadCloser, error), buf []byte) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r, err := open(l.Name)
	if err != nil {
		return nil, fmt.Errorf("luggage %s: %w", l.Name, err)
	}
	k, rerr := io.ReadFull(r, buf[:l.Size+1])
	r.Close()
	switch {
	case rerr == nil:
		return nil, &pack.Error{Entry: "data/files/" + l.Name, Rule: pack.RuleDigest, Detail: fmt.Sprintf("luggage is more than the %d bytes the pack said", l.Size)}
	case rerr != io.ErrUnexpectedEOF && rerr != io.EOF:
		return nil, luggageErr(l, rerr)
	case int64(k) != l.Size:
		return nil, &pack.Error{Entry: "data/files/" + l.Name, Rule: pack.RuleDigest, Detail: fmt.Sprintf("luggage is %d bytes, the pack said %d", k, l.Size)}
	}
	return buf[:k], nil
}

// extractSmall is extractOne for a file of at most smallLuggage bytes,
// made through os.Root (where createIn is not used); buf holds
// smallLuggage+1 bytes.
func extractSmall(ctx context.Context, root *os.Root, name string, l pack.Luggage, open func(string) (io.ReadCloser, error), buf []byte, sc io.Writer, batch *durable.Batch, step func(int64)) error {
	data, err := readSmall(ctx, l, open, buf)
	if err != nil {
		return err
	}
	sc.Write(data)
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("luggage %s: %w", l.Name, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = batch.File(f)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("luggage %s: %w", l.Name, err)
	}
	step(int64(len(data)))
	return nil
}

// smallRun is how many files a worker takes at a time, and smallRunBytes
// the most of their bytes it holds before creating them.
const (
	smallRun      = 32
	smallRunBytes = 1 << 20
)

// smallRunFiles are a worker's small files read and verified, not yet
// created: their bytes in one buffer, reused run after run.
type smallRunFiles struct {
	buf   []byte
	files []pendingFile
}

type pendingFile struct {
	dir        *folderFile
	name, path string // path: the luggage name, for errors
	at, end    int    // the bytes, in buf
}

// add reads luggage l (at most smallLuggage bytes), verified, scans it and
// finishes its scan here on the worker (written whole, nothing more comes:
// the scans run side by side and the scanner's buffers go now, not after
// the last file), and keeps it to be created in dir by create.
func (r *smallRunFiles) add(ctx context.Context, dir *folderFile, name string, l pack.Luggage, open func(string) (io.ReadCloser, error), sc *scan.LuggageScanner, step func(int64)) error {
	if len(r.buf)+int(l.Size)+1 > smallRunBytes && len(r.files) > 0 {
		if err := r.create(step); err != nil {
			return err
		}
	}
	at := len(r.buf)
	if need := at + int(l.Size) + 1; cap(r.buf) < need {
		r.buf = append(r.buf[:cap(r.buf)], make([]byte, need-cap(r.buf))...)[:at]
	}
	data, err := readSmall(ctx, l, open, r.buf[at:at+int(l.Size)+1])
	if err != nil {
		return err
	}
	sc.Write(data)
	sc.Findings()
	r.buf = r.buf[:at+len(data)]
	r.files = append(r.files, pendingFile{dir: dir, name: name, path: l.Name, at: at, end: at + len(data)})
	return nil
}

// create makes the files kept, those of one folder in a row under one hold
// of the folder's lock, and empties the run.
func (r *smallRunFiles) create(step func(int64)) error {
	var done int64
	for i := 0; i < len(r.files); {
		dir := r.files[i].dir
		dir.mu.Lock()
		for ; i < len(r.files) && r.files[i].dir == dir; i++ {
			f := r.files[i]
			if err := createInLocked(dir, f.name, r.buf[f.at:f.end]); err != nil {
				dir.mu.Unlock()
				return fmt.Errorf("luggage %s: %w", f.path, err)
			}
			done += int64(f.end - f.at)
		}
		dir.mu.Unlock()
	}
	r.buf, r.files = r.buf[:0], r.files[:0]
	if done > 0 {
		step(done)
	}
	return nil
}

// folderFile is a folder of the luggage open as a file, for createIn, and
// the lock its files are created under (the openat alone). The kernel
// creates one file at a time in a folder anyway; a worker that finds the
// folder busy in the kernel spins on its lock, which cost more CPU than the
// creating itself when ext4 was slow to find a free inode (two workers
// landing 5,000 files in one folder: 2.3 s of system time against 0.3 s),
// whereas a waiter here sleeps.
type folderFile struct {
	f  *os.File
	fd int // f's descriptor, taken once: each Fd call sets it blocking again
	mu sync.Mutex
}

func newFolderFile(f *os.File) *folderFile { return &folderFile{f: f, fd: int(f.Fd())} }

// extractOne writes one luggage file, checking its digest and size.
func extractOne(ctx context.Context, root *os.Root, name string, l pack.Luggage, open func(string) (io.ReadCloser, error), side *sideScan, sc io.Writer, batch *durable.Batch, step func(int64)) (int64, error) {
	r, err := open(l.Name)
	if err != nil {
		return 0, fmt.Errorf("luggage %s: %w", l.Name, err)
	}
	defer r.Close()
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, fmt.Errorf("luggage %s: %w", l.Name, err)
	}
	defer f.Close()
	var n, flushed int64
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		if !batch.FlushOnce() && n-flushed >= writebackEvery {
			durable.StartWriteback(f, flushed, n-flushed)
			flushed = n
		}
		buf := side.buffer()
		k, rerr := io.ReadFull(r, buf)
		if rerr == io.ErrUnexpectedEOF {
			rerr = io.EOF
		}
		if k > 0 {
			if _, err := f.Write(buf[:k]); err != nil {
				side.release(buf)
				return n, fmt.Errorf("luggage %s: %w", l.Name, err)
			}
			side.scan(sc, buf[:k])
			n += int64(k)
			step(int64(k))
		} else {
			side.release(buf)
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return n, luggageErr(l, rerr)
		}
	}
	if l.Size > 0 && n != l.Size {
		return n, &pack.Error{Entry: "data/files/" + l.Name, Rule: pack.RuleDigest, Detail: fmt.Sprintf("luggage is %d bytes, the pack said %d", n, l.Size)}
	}
	if err := batch.File(f); err != nil {
		return n, err
	}
	return n, f.Close()
}

// luggageName checks a luggage name is a plain relative path before it is
// used on disk (the reader refused hostile names already, D10; this is the
// last line).
func luggageName(name string) (string, error) {
	bad := func(why string) (string, error) {
		return "", &pack.Error{Entry: "data/files/" + name, Rule: pack.RulePathTraversal, Detail: "luggage name " + why}
	}
	if name == "" || strings.ContainsAny(name, "\\\x00") || strings.HasPrefix(name, "/") {
		return bad("is empty, absolute, or holds a backslash or NUL")
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return bad("has an empty, . or .. segment")
		}
	}
	return name, nil
}

// landingSuffix marks the temporary folder a landing writes luggage into.
const landingSuffix = ".landing-"

// staleAfter is how old a temporary landing folder must be before a later
// landing removes it when its owner cannot be told: a process killed
// half-way (power, kill -9) leaves one behind, and no landing takes a day.
// A folder whose name carries its owner (store.OwnerTag) and whose owner is
// gone from this host is removed at once: thirty killed landings of a large
// pack must not fill the disk for a day.
const staleAfter = 24 * time.Hour

// sweepStale removes temporary landing folders left in the store by a
// landing that died, best effort. Only hidden ".<id>.files.landing-…"
// folders are touched, never a link: at once when their owner is gone
// from this host, else once older than staleAfter.
func sweepStale(dir string, now time.Time) {
	sweepStaleMatching(dir, now, func(name string) bool { return strings.Contains(name, ".files"+landingSuffix) })
	// And a killed save's temporary file (its writer gone from this host).
	durable.SweepTemps(dir)
}

// sweepDead removes, best effort, what landings killed with -9 left in the
// store (issue 11): locks whose owner is gone, staging folders and
// temporary files of dead writers, and a files folder whose passport was
// never saved (killed between moving the luggage into place and saving) —
// the last only when no other landing is in progress, since a live landing
// has that state for a moment too. own is this landing's lock.
func sweepDead(st *store.Store, own string) {
	held := st.SweepLocks()
	sweepStale(st.Dir(), time.Now())
	for _, h := range held {
		if h != own && strings.HasPrefix(h, "landing-") {
			return // another landing is under way: its files folder may be one of these
		}
	}
	des, err := os.ReadDir(st.Dir())
	if err != nil {
		return
	}
	for _, d := range des {
		name := d.Name()
		id, ok := strings.CutSuffix(name, ".files")
		if !ok || !d.IsDir() || store.ValidID(id) != nil {
			continue
		}
		if _, err := os.Lstat(st.Path(id)); errors.Is(err, fs.ErrNotExist) {
			os.RemoveAll(filepath.Join(st.Dir(), name))
		}
	}
}

// sweepStaleMerges does the same inside a passport's files folder for the
// hidden ".receipt-….landing-…" folders a merge writes luggage into.
func sweepStaleMerges(filesDir string, now time.Time) {
	sweepStaleMatching(filesDir, now, func(name string) bool {
		return strings.HasPrefix(name, ".receipt-") && strings.Contains(name, landingSuffix)
	})
}

func sweepStaleMatching(dir string, now time.Time, match func(string) bool) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, d := range des {
		name := d.Name()
		if !d.IsDir() || !strings.HasPrefix(name, ".") || !match(name) {
			continue
		}
		if !owner.Gone(owner.Find(name, landingSuffix)) {
			info, err := d.Info()
			if err != nil || now.Sub(info.ModTime()) < staleAfter {
				continue
			}
		}
		os.RemoveAll(filepath.Join(dir, name))
	}
}

func randHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// sideScan runs the luggage credential scan (D5) on its own goroutine, so
// it overlaps with reading, verifying and writing instead of adding to
// them. It owns a fixed set of buffers: memory does not grow with the pack.
type sideScan struct {
	work    chan sideChunk
	free    chan []byte
	made    atomic.Int32 // buffers allocated so far, up to n: a pack of small files needs none
	n       int32
	size    int
	pending sync.WaitGroup
	done    chan struct{}
}

type sideChunk struct {
	w io.Writer
	b []byte
}

func newSideScan(n, size int) *sideScan {
	s := &sideScan{work: make(chan sideChunk, n), free: make(chan []byte, n), n: int32(n), size: size, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for c := range s.work {
			c.w.Write(c.b)
			s.free <- c.b[:cap(c.b)]
			s.pending.Done()
		}
	}()
	return s
}

// buffer returns a free buffer, allocating one while fewer than n exist,
// else waiting for one.
func (s *sideScan) buffer() []byte {
	select {
	case b := <-s.free:
		return b
	default:
	}
	if s.made.Add(1) <= s.n {
		return make([]byte, s.size)
	}
	return <-s.free
}

// release returns a buffer that was not handed to scan.
func (s *sideScan) release(b []byte) { s.free <- b[:cap(b)] }

// scan hands b to w on the scanning goroutine; b returns to the pool after.
func (s *sideScan) scan(w io.Writer, b []byte) {
	s.pending.Add(1)
	s.work <- sideChunk{w, b}
}

// wait returns when every chunk handed over so far has been scanned.
func (s *sideScan) wait() { s.pending.Wait() }

// stop ends the scanning goroutine.
func (s *sideScan) stop() {
	close(s.work)
	<-s.done
}
