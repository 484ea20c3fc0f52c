package store

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/tp-dev/tp/internal/ojson"
	"github.com/tp-dev/tp/model"
)

// IDAlphabet is the alphabet of passport ids (D14): digits and capitals
// without 0, 1, I, L, O, which people misread.
const IDAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// Harness is what tp records as the harness of a passport it creates.
const Harness = "tp"

// Defaults for a passport created without a current state or next step.
const (
	DefaultCurrentState = "Passport created; work has not started."
	DefaultNextStep     = "Read the goal, then plan and take the first verifiable step."
)

// MintID returns a fresh TP-XXXX-XXXX from IDAlphabet, uniformly: bytes
// that would bias the alphabet (≥ 248) are drawn again.
func MintID() string {
	var body [8]byte
	buf := make([]byte, 16)
	n := 0
	for n < 8 {
		if _, err := rand.Read(buf); err != nil {
			panic("crypto/rand: " + err.Error()) // never fails on supported platforms
		}
		for _, b := range buf {
			if n == 8 {
				break
			}
			if int(b) < 256-256%len(IDAlphabet) {
				body[n] = IDAlphabet[int(b)%len(IDAlphabet)]
				n++
			}
		}
	}
	return "TP-" + string(body[:4]) + "-" + string(body[4:])
}

// NewID mints an id that no passport, and no luggage folder, in the store
// uses yet (D14: the receiver mints ids).
func (s *Store) NewID() (string, error) {
	for i := 0; i < 100; i++ {
		mint := s.mint
		if mint == nil {
			mint = MintID
		}
		id := mint()
		_, err1 := os.Lstat(s.Path(id))
		_, err2 := os.Lstat(s.FilesDir(id))
		if os.IsNotExist(err1) && os.IsNotExist(err2) {
			return id, nil
		}
		if err1 != nil && !os.IsNotExist(err1) {
			return "", fmt.Errorf("passport store %s: %w", s.dir, err1)
		}
	}
	return "", fmt.Errorf("passport store %s: could not find an unused id", s.dir)
}

// CreateOptions are the optional parts of a new passport.
type CreateOptions struct {
	CurrentState string // default DefaultCurrentState
	NextStep     string // default DefaultNextStep
	Harness      string // default Harness
}

// NewState builds a fresh 2origin/0.1 state with the reference's fields in
// the reference's key order (core.js create), version 1 and both stamps at
// now. It does not save it.
func NewState(id, title, goal string, opt CreateOptions, now time.Time) *ojson.Value {
	state := strings.TrimSpace(opt.CurrentState)
	if state == "" {
		state = DefaultCurrentState
	}
	next := strings.TrimSpace(opt.NextStep)
	if next == "" {
		next = DefaultNextStep
	}
	harness := opt.Harness
	if harness == "" {
		harness = Harness
	}
	ts := Timestamp(now)
	v := ojson.NewObject()
	str := func(k, s string) { v.Set(k, ojson.NewString(s)) }
	str("spec", model.SpecState)
	str("kind", "task.origin")
	str("id", id)
	str("title", strings.TrimSpace(title))
	str("goal", strings.TrimSpace(goal))
	v.Set("version", ojson.NewInt(1))
	str("machine_id", "")
	str("harness", harness)
	str("scope", "")
	str("created_at", ts)
	str("updated_at", ts)
	str("current_state", state)
	v.Set("facts", ojson.NewArray())
	v.Set("decisions", ojson.NewArray())
	v.Set("actions", ojson.NewArray())
	v.Set("artifacts", ojson.NewArray())
	str("verification", "")
	v.Set("next_steps", ojson.NewStrings([]string{next}))
	v.Set("learnings", ojson.NewArray())
	return v
}

// Create makes and saves a new passport (version 1) under a freshly minted
// id. Title and goal are required.
func (s *Store) Create(title, goal string, opt CreateOptions) (*ojson.Value, error) {
	if strings.TrimSpace(title) == "" {
		return nil, errors.New("a title is required")
	}
	if strings.TrimSpace(goal) == "" {
		return nil, errors.New("a goal is required")
	}
	for attempt := 0; ; attempt++ {
		id, err := s.NewID()
		if err != nil {
			return nil, err
		}
		saved, err := s.Save(NewState(id, title, goal, opt, s.now()), 0)
		var ce *ConflictError
		if errors.As(err, &ce) && attempt < 3 {
			continue // someone minted the same id between NewID and Save
		}
		return saved, err
	}
}
