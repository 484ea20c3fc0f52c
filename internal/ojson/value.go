// Package ojson is an ordered JSON value and the canonical encoder of
// D1.
//
// TaskPack's C9 round trip compares data/passport.json byte for byte, and the
// reference implementation writes it with ECMAScript
// JSON.stringify(value, null, 2) + "\n". So every JSON file tp writes uses
// exactly that form: key order as read (with JavaScript's rule that
// array-index keys come first, ascending), two-space indent, numbers as
// JavaScript prints them, lone surrogates kept. Unknown fields survive every
// read → write in place, because a Value keeps what it does not understand.
//
// Strings are Go strings holding UTF-8; a lone UTF-16 surrogate read from a
// \uXXXX escape is kept as its three-byte WTF-8 form so it can be written back
// as the same escape.
package ojson

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strconv"
)

// Kind says which of the six JSON types a Value is.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	case Object:
		return "object"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Value is one JSON value. The zero Value is null.
//
// A Value is three words (24 bytes): what kind it is, and an array's or an
// object's contents, are behind c; a string's text is s, and so is a
// number's, as the eight bytes of its float64 (numberText). Booleans,
// numbers and strings point c at a tag shared by all of their kind, so a
// scalar is one allocation of 24 bytes — a passport of 110,000 facts is
// 440,000 Values, and a Value that held its kind, boolean, number, string,
// elements and object side by side was 64 bytes (issue 20). Numbers are
// few in the documents tp reads; each costs an 8-byte string more.
type Value struct {
	c *Obj // nil: null; a tag (Bool, Number, String); an array's or object's own
	s string
}

// numberText is f as a Number Value holds it in s: its bits, little-endian.
func numberText(f float64) string {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], math.Float64bits(f))
	return string(b[:])
}

// num is the number v holds (v a Number).
func (v *Value) num() float64 {
	s := v.s
	_ = s[7]
	return math.Float64frombits(uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56)
}

// Member is one key/value pair of an object.
type Member struct {
	Key   string
	Value *Value
}

// Obj is an object with its members in JavaScript property order. It is
// also, with no members, what says an array's kind and holds its elements
// (in x), and the tags that say a scalar's kind.
type Obj struct {
	kind    Kind
	members []Member
	x       *objExtra // what few objects need, apart: an Obj is one per JSON object
}

// objExtra is what only some objects have — the lookup index of one past 8
// members — and what an array has: its elements, or the generator of a
// NewArrayFunc array.
type objExtra struct {
	index map[string]int
	lazy  *lazyItems
	elems []*Value
}

// The tags of the scalars: never changed, shared by every Value of their
// kind. Obj() returns nil for them, so no caller can reach one to change it.
var (
	tagFalse  = &Obj{kind: Bool}
	tagTrue   = &Obj{kind: Bool}
	tagNumber = &Obj{kind: Number}
	tagString = &Obj{kind: String}
)

func boolTag(b bool) *Obj {
	if b {
		return tagTrue
	}
	return tagFalse
}

// arrayNode is an array's Obj and its objExtra, made in one allocation.
type arrayNode struct {
	o Obj
	x objExtra
}

// arrayObj is the contents of an array of elems.
func arrayObj(elems []*Value) *Obj {
	a := &arrayNode{o: Obj{kind: Array}, x: objExtra{elems: elems}}
	a.o.x = &a.x
	return &a.o
}

// objectNode is an object Value and its Obj, made in one allocation.
type objectNode struct {
	v Value
	o Obj
}

func newObject(members []Member) *Value {
	n := &objectNode{o: Obj{kind: Object, members: members}}
	n.v.c = &n.o
	return &n.v
}

// lazyItems are the elements of a NewArrayFunc array.
type lazyItems struct {
	n  int
	at func(i int) *Value
}

// NewArrayFunc is an array of n elements that at(i) makes when they are
// needed: writing it (Canonical, WriteCanonical, Compact, CanonicalSize)
// makes one element at a time and keeps none, so a list derived from a big
// passport is written without being built whole (issue 20: tp open --json of
// 110,000 facts built 35 MB of briefing to write it once). at must make an
// equal value every time it is called with the same i. Items returns a
// fresh list each time; Append (and SetItems) turn the array into an
// ordinary one first.
func NewArrayFunc(n int, at func(i int) *Value) *Value {
	c := arrayObj(nil)
	c.x.lazy = &lazyItems{n: max(n, 0), at: at}
	return &Value{c: c}
}

// lazyList is v's generator when v is a NewArrayFunc array, nil otherwise.
func (v *Value) lazyList() *lazyItems {
	if v.c == nil || v.c.kind != Array {
		return nil
	}
	return v.c.x.lazy
}

// elems are v's elements (v an array), made now when v is a NewArrayFunc
// array.
func (v *Value) elems() []*Value {
	l := v.lazyList()
	if l == nil {
		return v.c.x.elems
	}
	out := make([]*Value, l.n)
	for i := range out {
		out[i] = l.at(i)
	}
	return out
}

// arrayLen is the number of elements of array v.
func (v *Value) arrayLen() int {
	if l := v.lazyList(); l != nil {
		return l.n
	}
	return len(v.c.x.elems)
}

// elem is element i of array v.
func (v *Value) elem(i int) *Value {
	if l := v.lazyList(); l != nil {
		return l.at(i)
	}
	return v.c.x.elems[i]
}

// NewNull, NewBool, NewNumber, NewString, NewArray and NewObject build values.
func NewNull() *Value              { return &Value{} }
func NewBool(b bool) *Value        { return &Value{c: boolTag(b)} }
func NewNumber(f float64) *Value   { return &Value{c: tagNumber, s: numberText(f)} }
func NewInt(i int64) *Value        { return NewNumber(float64(i)) }
func NewString(s string) *Value    { return &Value{c: tagString, s: s} }
func NewArray(vs ...*Value) *Value { return &Value{c: arrayObj(vs)} }
func NewObject() *Value            { return newObject(nil) }

// NewObjectOf is an object holding ms, set in order as Set would (a later
// key replaces an earlier one), in one allocation of their number.
func NewObjectOf(ms ...Member) *Value {
	v := newObject(make([]Member, 0, len(ms)))
	for _, m := range ms {
		v.c.Set(m.Key, m.Value)
	}
	return v
}
func NewStrings(ss []string) *Value {
	// One allocation for the values and one for the list, not two per
	// string (landed_from lists every claim of a pack: issue 20).
	vals := make([]Value, len(ss))
	elems := make([]*Value, len(ss))
	for i, s := range ss {
		vals[i] = Value{c: tagString, s: s}
		elems[i] = &vals[i]
	}
	return &Value{c: arrayObj(elems)}
}

// Kind returns the value's type; a nil *Value is null.
func (v *Value) Kind() Kind {
	if v == nil || v.c == nil {
		return Null
	}
	return v.c.kind
}

// IsNull reports whether v is null or absent (nil).
func (v *Value) IsNull() bool { return v == nil || v.c == nil }

// Bool returns the boolean and whether v is one.
func (v *Value) Bool() (bool, bool) {
	if v.Kind() != Bool {
		return false, false
	}
	return v.c == tagTrue, true
}

// Number returns the number and whether v is one.
func (v *Value) Number() (float64, bool) {
	if v.Kind() != Number {
		return 0, false
	}
	return v.num(), true
}

// Int returns the number as an integer when v is an integral number.
func (v *Value) Int() (int64, bool) {
	f, ok := v.Number()
	if !ok || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}

// Str returns the string and whether v is one.
func (v *Value) Str() (string, bool) {
	if v.Kind() != String {
		return "", false
	}
	return v.s, true
}

// Text returns the string, or "" when v is not a string.
func (v *Value) Text() string { s, _ := v.Str(); return s }

// Items returns the elements of an array, nil otherwise. The slice is the
// value's own: appending through SetItems keeps it consistent.
func (v *Value) Items() []*Value {
	if v.Kind() != Array {
		return nil
	}
	return v.elems()
}

// SetItems replaces the elements of an array value.
func (v *Value) SetItems(items []*Value) { v.c = arrayObj(items) }

// Append adds elements to an array value.
func (v *Value) Append(items ...*Value) {
	if v.Kind() != Array {
		v.c = arrayObj(items)
		return
	}
	if v.lazyList() != nil {
		v.c = arrayObj(v.elems())
	}
	v.c.x.elems = append(v.c.x.elems, items...)
}

// Obj returns the object, nil when v is not one.
func (v *Value) Obj() *Obj {
	if v.Kind() != Object {
		return nil
	}
	return v.c
}

// Get returns the member named key of an object value, nil when absent or
// when v is not an object.
func (v *Value) Get(key string) *Value { return v.Obj().Get(key) }

// Has reports whether an object value has the key.
func (v *Value) Has(key string) bool { return v.Obj().Has(key) }

// Set sets key on an object value (see Obj.Set).
func (v *Value) Set(key string, val *Value) { v.Obj().Set(key, val) }

// Clone returns a deep copy.
func (v *Value) Clone() *Value {
	if v == nil {
		return nil
	}
	// Counted first, then cut from five slabs: cloning a passport of
	// 110,000 facts was half a million allocations (issue 20).
	var c cloner
	c.count(v)
	c.vals = make([]Value, c.nvals)
	c.objs = make([]Obj, c.nobjs)
	c.arrs = make([]arrayNode, c.narrs)
	c.elems = make([]*Value, c.nelems)
	c.members = make([]Member, c.nmembers)
	return c.clone(v)
}

// cloner makes a deep copy of a tree from slabs sized by count. Each array
// and member list is cut with its capacity at its length, so appending to
// a copy never writes into its neighbour's part of the slab.
type cloner struct {
	nvals, nobjs, narrs, nelems, nmembers int
	vals                                  []Value
	objs                                  []Obj
	arrs                                  []arrayNode
	elems                                 []*Value
	members                               []Member
}

func (c *cloner) count(v *Value) {
	if v == nil {
		return
	}
	c.nvals++
	switch v.Kind() {
	case Array:
		c.narrs++
		n := v.arrayLen()
		c.nelems += n
		for i := 0; i < n; i++ {
			c.count(v.elem(i))
		}
	case Object:
		c.nobjs++
		c.nmembers += len(v.c.members)
		for _, m := range v.c.members {
			c.count(m.Value)
		}
	}
}

func (c *cloner) clone(v *Value) *Value {
	if v == nil {
		return nil
	}
	n := &c.vals[0]
	c.vals = c.vals[1:]
	*n = *v
	switch v.Kind() {
	case Array:
		// A NewArrayFunc array is an ordinary one in the copy.
		a := &c.arrs[0]
		c.arrs = c.arrs[1:]
		k := v.arrayLen()
		a.o.kind, a.o.x = Array, &a.x
		a.x.elems = c.elems[:k:k]
		if k == 0 && v.lazyList() == nil && v.c.x.elems == nil {
			a.x.elems = nil // as it was
		}
		c.elems = c.elems[k:]
		for i := range k {
			a.x.elems[i] = c.clone(v.elem(i))
		}
		n.c = &a.o
	case Object:
		o := &c.objs[0]
		c.objs = c.objs[1:]
		k := len(v.c.members)
		o.kind = Object
		o.members = c.members[:k:k]
		c.members = c.members[k:]
		for i, m := range v.c.members {
			o.members[i] = Member{Key: m.Key, Value: c.clone(m.Value)}
		}
		n.c = o
	}
	return n
}

// Len is the number of members.
func (o *Obj) Len() int {
	if o == nil {
		return 0
	}
	return len(o.members)
}

// Members returns the members in property order. Do not modify the slice.
func (o *Obj) Members() []Member {
	if o == nil {
		return nil
	}
	return o.members
}

// Keys returns the keys in property order.
func (o *Obj) Keys() []string {
	ks := make([]string, 0, o.Len())
	for _, m := range o.Members() {
		ks = append(ks, m.Key)
	}
	return ks
}

func (o *Obj) find(key string) int {
	if o == nil {
		return -1
	}
	if len(o.members) > 8 {
		if o.x == nil {
			o.x = &objExtra{}
		}
		if o.x.index == nil {
			o.x.index = make(map[string]int, len(o.members))
			for i, m := range o.members {
				o.x.index[m.Key] = i
			}
		}
		if i, ok := o.x.index[key]; ok {
			return i
		}
		return -1
	}
	for i, m := range o.members {
		if m.Key == key {
			return i
		}
	}
	return -1
}

// Get returns the value of key, nil when absent.
func (o *Obj) Get(key string) *Value {
	if i := o.find(key); i >= 0 {
		return o.members[i].Value
	}
	return nil
}

// Has reports whether key is present.
func (o *Obj) Has(key string) bool { return o.find(key) >= 0 }

// Set replaces the value of an existing key in place, or adds a new key where
// JavaScript would put it: array-index keys in ascending order ahead of the
// others, any other key last.
func (o *Obj) Set(key string, val *Value) {
	if val == nil {
		val = NewNull()
	}
	if i := o.find(key); i >= 0 {
		o.members[i].Value = val
		return
	}
	if idx, ok := arrayIndex(key); ok {
		o.dropIndex() // positions shift: rebuilt on the next lookup
		pos := sort.Search(len(o.members), func(i int) bool {
			j, isIdx := arrayIndex(o.members[i].Key)
			return !isIdx || j > idx
		})
		o.members = append(o.members, Member{})
		copy(o.members[pos+1:], o.members[pos:])
		o.members[pos] = Member{Key: key, Value: val}
		return
	}
	if o.x != nil && o.x.index != nil {
		o.x.index[key] = len(o.members)
	}
	o.members = append(o.members, Member{Key: key, Value: val})
}

// Delete removes key; it reports whether it was there.
func (o *Obj) Delete(key string) bool {
	i := o.find(key)
	if i < 0 {
		return false
	}
	o.members = append(o.members[:i], o.members[i+1:]...)
	o.dropIndex()
	return true
}

func (o *Obj) dropIndex() {
	if o.x != nil {
		o.x.index = nil
	}
}

// arrayIndex reports whether key is an ECMAScript array index: the canonical
// decimal form of an integer in [0, 2^32-2]. Such keys come first in
// JavaScript's property order.
func arrayIndex(key string) (uint32, bool) {
	if key == "" || len(key) > 10 || (len(key) > 1 && key[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(key); i++ {
		if key[i] < '0' || key[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(key, 10, 64)
	if err != nil || n > 1<<32-2 {
		return 0, false
	}
	return uint32(n), true
}

// Shallow returns a copy of v that shares v's members or elements: setting,
// deleting or replacing the copy's own members (Set, Delete, SetItems)
// leaves v as it was, while a change made inside a shared member shows in
// both. It is how a job makes a changed version of a big tree without
// copying what it does not change (issue 20: a deep copy of a passport of
// 110,000 facts is 40 MB); such a job copies every value on the path to
// what it changes, and changes nothing shared.
func (v *Value) Shallow() *Value {
	if v == nil {
		return nil
	}
	n := *v
	switch v.Kind() {
	case Array:
		elems := v.elems()
		if v.lazyList() == nil {
			elems = append(make([]*Value, 0, len(elems)), elems...)
		}
		n.c = arrayObj(elems)
	case Object:
		n.c = &Obj{kind: Object, members: append(make([]Member, 0, len(v.c.members)), v.c.members...)}
	}
	return &n
}
