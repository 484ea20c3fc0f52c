package pack

// Limits bound what a reader accepts from a ZIP (D10). A zero field means the
// default.
type Limits struct {
	MaxTotal   int64 // bytes, uncompressed, over all entries
	MaxEntries int   // entries in the archive
	MaxRatio   int64 // uncompressed:compressed, per entry and for the archive
	RatioFloor int64 // the ratio is only judged for entries larger than this
	// MaxCanonical bounds the canonical form (D1) of the pack object: what
	// data/passport.json must be and what landing writes to the store. A
	// small document of deep, wide arrays has a canonical form hundreds of
	// times its size (D10 work limits).
	MaxCanonical int64
}

// DefaultLimits are D10's: 16 GiB in total, 100,000 entries, a compression
// ratio of at most 1000:1 for anything beyond 1 MiB.
func DefaultLimits() Limits {
	return Limits{MaxTotal: 16 << 30, MaxEntries: 100_000, MaxRatio: 1000, RatioFloor: 1 << 20, MaxCanonical: 64 << 20}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxTotal <= 0 {
		l.MaxTotal = d.MaxTotal
	}
	if l.MaxEntries <= 0 {
		l.MaxEntries = d.MaxEntries
	}
	if l.MaxRatio <= 0 {
		l.MaxRatio = d.MaxRatio
	}
	if l.RatioFloor <= 0 {
		l.RatioFloor = d.RatioFloor
	}
	if l.MaxCanonical <= 0 {
		l.MaxCanonical = d.MaxCanonical
	}
	return l
}

// MaxObjectBytes bounds the pack object (data/passport.json, the flat
// "passport", any other top-level flat member): it is parsed in memory,
// unlike luggage.
const MaxObjectBytes = 64 << 20

// MaxInlineBytes is the flat writer's per-attachment limit (§2.2,
// max_inline_attachment_bytes in the A2A descriptor).
const MaxInlineBytes = 1 << 20

// Options control a read.
type Options struct {
	Limits Limits
	// Strict refuses any input that would need a repair (judging, §6 C0).
	Strict bool
	// Progress, when set, is called as payload bytes are verified.
	Progress func(done, total int64)
	// DeferLuggage checks a bag's structure, manifests, Payload-Oxum and
	// data/passport.json up front but verifies each luggage file's digest
	// only as OpenLuggage streams it (a mismatch fails that read). It is for
	// callers that read every luggage byte anyway and throw away what they
	// wrote on a failed read — landing — so a large pack is read once, not
	// twice. Pack.LuggageVerified says which was done. Ignored when Strict.
	DeferLuggage bool
	// NoFileDigest leaves Pack.Digest empty instead of hashing the whole
	// file: for callers that recognise a pack by its content identity
	// alone (the object and the luggage digests the pack declares), such
	// as home's list of the packs in a folder, which would otherwise read
	// every byte of every pack there.
	NoFileDigest bool
	// NoRaw leaves Pack.Raw nil and lets the bytes of the pack object go
	// once Open has checked them, verified the signature over them and
	// taken Pack.ObjectSHA256: for callers that use the parsed object and
	// its digest only (landing), which would otherwise hold a pack object
	// of 10 MB twice, as bytes and as a tree (issue 20).
	NoRaw bool
}
