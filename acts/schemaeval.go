package acts

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tp-dev/tp/internal/ojson"
)

// The embedded record schemas (schemas/*.json) are the rules; this file
// evaluates them (D24). It reads the JSON Schema 2020-12 keywords the
// schemas use and refuses to compile a schema holding any other keyword,
// so a schema edit can never be silently ignored. It evaluates the ordered
// values tp parses and builds (no generic copy of the record), asserts the
// date-time and date formats, and reports each failure at the keyword's
// absolute location (file#/json-pointer/keyword) and the instance's JSON
// pointer. It compiles on first use: a tp run that validates no record
// pays nothing at start-up.

// sNode is one compiled schema (object) of the embedded set.
type sNode struct {
	loc      string // absolute location of this schema: "record.json#/$defs/key"
	typ      string // "", "object", "string", "integer", "array"
	constV   *ojson.Value
	enum     []*ojson.Value
	required []string
	props    map[string]*sNode
	items    *sNode
	unique   bool
	minLen   int // -1 when absent
	maxLen   int // -1 when absent
	minItems int // -1 when absent
	minimum  *float64
	pattern  *regexp.Regexp
	format   string
	ref      string // as written; resolved into refNode
	refNode  *sNode
	allOf    []*sNode
	ifS      *sNode
	thenS    *sNode
	elseS    *sNode
}

// isSchemaKeyword: the keywords the evaluator knows; annotations are read
// and ignored.
func isSchemaKeyword(k string) bool {
	switch k {
	case "$schema", "$id", "title", "description", "$defs",
		"type", "const", "enum", "required", "properties",
		"items", "uniqueItems", "minLength", "maxLength",
		"minItems", "minimum", "pattern", "format", "$ref",
		"allOf", "if", "then", "else":
		return true
	}
	return false
}

// schemaFormat is the check of a format the evaluator asserts, nil for
// any other. (Switches, not maps: nothing to build at start-up, issue 20.)
func schemaFormat(name string) func(string) bool {
	switch name {
	case "date-time":
		return isDateTime
	case "date":
		return isFullDate
	}
	return nil
}

type schemaCompiler struct {
	nodes map[string]*sNode // by absolute location
	all   []*sNode
}

// compileSchemaSet compiles the named documents (file name → JSON).
func compileSchemaSet(files map[string][]byte) (map[string]*sNode, error) {
	c := &schemaCompiler{nodes: map[string]*sNode{}}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		v, err := ojson.ParseStrict(files[name])
		if err != nil {
			return nil, fmt.Errorf("embedded schema %s: %w", name, err)
		}
		if id := v.Get("$id").Text(); id != SchemaBase+name {
			return nil, fmt.Errorf("embedded schema %s: $id %q, want %q", name, id, SchemaBase+name)
		}
		if _, err := c.compile(v, name, name+"#"); err != nil {
			return nil, err
		}
	}
	for _, n := range c.all {
		if n.ref == "" {
			continue
		}
		file, ptr, _ := strings.Cut(n.ref, "#")
		if file == "" {
			file, _, _ = strings.Cut(n.loc, "#")
		}
		target := c.nodes[file+"#"+ptr]
		if target == nil {
			return nil, fmt.Errorf("embedded schema %s: $ref %q resolves to nothing", n.loc, n.ref)
		}
		n.refNode = target
	}
	return c.nodes, nil
}

func (c *schemaCompiler) compile(v *ojson.Value, file, loc string) (*sNode, error) {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("embedded schema %s: %s", loc, fmt.Sprintf(format, a...))
	}
	if v.Kind() != ojson.Object {
		return nil, fail("a schema must be an object")
	}
	n := &sNode{loc: loc, minLen: -1, maxLen: -1, minItems: -1}
	c.nodes[loc] = n
	c.all = append(c.all, n)
	nonNeg := func(k string, x *ojson.Value) (int, error) {
		i, ok := x.Int()
		if !ok || i < 0 {
			return 0, fail("%s must be a non-negative integer", k)
		}
		return int(i), nil
	}
	sub := func(k string, x *ojson.Value) (*sNode, error) { return c.compile(x, file, loc+"/"+k) }
	for _, m := range v.Obj().Members() {
		k, x := m.Key, m.Value
		if !isSchemaKeyword(k) {
			return nil, fail("keyword %q is not supported by tp's evaluator (D24)", k)
		}
		var err error
		switch k {
		case "type":
			n.typ = x.Text()
			switch n.typ {
			case "object", "string", "integer", "array":
			default:
				return nil, fail("type %s is not supported", ojson.Compact(x))
			}
		case "const":
			n.constV = x
		case "enum":
			if x.Kind() != ojson.Array {
				return nil, fail("enum must be an array")
			}
			n.enum = x.Items()
		case "required":
			for _, it := range x.Items() {
				s, ok := it.Str()
				if !ok {
					return nil, fail("required must list strings")
				}
				n.required = append(n.required, s)
			}
		case "properties":
			if x.Kind() != ojson.Object {
				return nil, fail("properties must be an object")
			}
			n.props = map[string]*sNode{}
			for _, p := range x.Obj().Members() {
				if n.props[p.Key], err = sub("properties/"+escapePointer(p.Key), p.Value); err != nil {
					return nil, err
				}
			}
		case "$defs":
			if x.Kind() != ojson.Object {
				return nil, fail("$defs must be an object")
			}
			for _, p := range x.Obj().Members() {
				if _, err = sub("$defs/"+escapePointer(p.Key), p.Value); err != nil {
					return nil, err
				}
			}
		case "items":
			n.items, err = sub(k, x)
		case "uniqueItems":
			n.unique, _ = x.Bool()
		case "minLength":
			n.minLen, err = nonNeg(k, x)
		case "maxLength":
			n.maxLen, err = nonNeg(k, x)
		case "minItems":
			n.minItems, err = nonNeg(k, x)
		case "minimum":
			f, ok := x.Number()
			if !ok {
				return nil, fail("minimum must be a number")
			}
			n.minimum = &f
		case "pattern":
			if n.pattern, err = regexp.Compile(x.Text()); err != nil {
				return nil, fail("pattern: %v", err)
			}
		case "format":
			n.format = x.Text()
			if schemaFormat(n.format) == nil {
				return nil, fail("format %q is not asserted by tp's evaluator (D24)", n.format)
			}
		case "$ref":
			if n.ref = x.Text(); n.ref == "" {
				return nil, fail("$ref must be a string")
			}
		case "allOf":
			for i, it := range x.Items() {
				s, err := sub("allOf/"+strconv.Itoa(i), it)
				if err != nil {
					return nil, err
				}
				n.allOf = append(n.allOf, s)
			}
		case "if":
			n.ifS, err = sub(k, x)
		case "then":
			n.thenS, err = sub(k, x)
		case "else":
			n.elseS, err = sub(k, x)
		}
		if err != nil {
			return nil, err
		}
	}
	return n, nil
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// schemaFailure is one keyword that refused a value.
type schemaFailure struct {
	keyword  string // absolute keyword location, e.g. "record.json#/$defs/key/pattern"
	instance string // JSON pointer into the record
	msg      string
}

// evalState collects failures; with collect false it stops at the first
// (the "if" of if/then/else only needs the verdict).
type evalState struct {
	collect bool
	fails   []schemaFailure
	failed  bool
}

func (st *evalState) fail(n *sNode, kw, inst, msg string) {
	st.failed = true
	if st.collect {
		st.fails = append(st.fails, schemaFailure{keyword: n.loc + "/" + kw, instance: inst, msg: msg})
	}
}

// stop reports whether evaluation can end early.
func (st *evalState) stop() bool { return st.failed && !st.collect }

func (n *sNode) eval(v *ojson.Value, inst string, st *evalState) {
	if n.refNode != nil {
		n.refNode.eval(v, inst, st)
		if st.stop() {
			return
		}
	}
	for _, s := range n.allOf {
		s.eval(v, inst, st)
		if st.stop() {
			return
		}
	}
	if n.typ != "" && !hasType(v, n.typ) {
		st.fail(n, "type", inst, fmt.Sprintf("got %s, want %s", kindName(v), n.typ))
		return
	}
	if n.constV != nil && !jsonEqual(v, n.constV) {
		st.fail(n, "const", inst, "value must be "+ojson.Brief(n.constV, 80))
	}
	if n.enum != nil {
		ok := false
		for _, e := range n.enum {
			if jsonEqual(v, e) {
				ok = true
				break
			}
		}
		if !ok {
			alts := make([]string, len(n.enum))
			for i, e := range n.enum {
				alts[i] = ojson.Brief(e, 80)
			}
			st.fail(n, "enum", inst, quoteValue(v)+" is not one of "+strings.Join(alts, ", "))
		}
	}
	if st.stop() {
		return
	}
	switch v.Kind() {
	case ojson.String:
		n.evalString(v.Text(), inst, st)
	case ojson.Number:
		if f, _ := v.Number(); n.minimum != nil && f < *n.minimum {
			st.fail(n, "minimum", inst, fmt.Sprintf("%s is less than %s", ojson.FormatNumber(f), ojson.FormatNumber(*n.minimum)))
		}
	case ojson.Array:
		n.evalArray(v.Items(), inst, st)
	case ojson.Object:
		n.evalObject(v.Obj(), inst, st)
	}
	if st.stop() || n.ifS == nil {
		return
	}
	probe := &evalState{}
	n.ifS.eval(v, inst, probe)
	if !probe.failed {
		if n.thenS != nil {
			n.thenS.eval(v, inst, st)
		}
	} else if n.elseS != nil {
		n.elseS.eval(v, inst, st)
	}
}

func (n *sNode) evalString(s, inst string, st *evalState) {
	if n.minLen >= 0 || n.maxLen >= 0 {
		c := utf8.RuneCountInString(s)
		if n.minLen >= 0 && c < n.minLen {
			st.fail(n, "minLength", inst, fmt.Sprintf("length %d is less than %d", c, n.minLen))
		}
		if n.maxLen >= 0 && c > n.maxLen {
			st.fail(n, "maxLength", inst, fmt.Sprintf("length %d is more than %d", c, n.maxLen))
		}
	}
	if n.pattern != nil && !n.pattern.MatchString(s) {
		st.fail(n, "pattern", inst, quoteString(s)+" does not match pattern "+quoteString(n.pattern.String()))
	}
	if n.format != "" && !schemaFormat(n.format)(s) {
		st.fail(n, "format", inst, quoteString(s)+" is not a valid "+n.format)
	}
}

func (n *sNode) evalArray(items []*ojson.Value, inst string, st *evalState) {
	if n.minItems >= 0 && len(items) < n.minItems {
		st.fail(n, "minItems", inst, fmt.Sprintf("%d items, fewer than %d", len(items), n.minItems))
	}
	if n.unique {
	outer:
		for i := range items {
			for j := i + 1; j < len(items); j++ {
				if jsonEqual(items[i], items[j]) {
					st.fail(n, "uniqueItems", inst, fmt.Sprintf("items %d and %d are equal", i, j))
					break outer
				}
			}
		}
	}
	if n.items != nil {
		for i, it := range items {
			n.items.eval(it, inst+"/"+strconv.Itoa(i), st)
			if st.stop() {
				return
			}
		}
	}
}

func (n *sNode) evalObject(o *ojson.Obj, inst string, st *evalState) {
	ms := o.Members()
	var missing []string
	for _, r := range n.required {
		found := false
		for _, m := range ms {
			if m.Key == r {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, "'"+r+"'")
		}
	}
	switch len(missing) {
	case 0:
	case 1:
		st.fail(n, "required", inst, "missing property "+missing[0])
	default:
		st.fail(n, "required", inst, "missing properties "+strings.Join(missing, ", "))
	}
	if n.props == nil {
		return
	}
	for _, m := range ms {
		if p := n.props[m.Key]; p != nil {
			p.eval(m.Value, inst+"/"+escapePointer(m.Key), st)
			if st.stop() {
				return
			}
		}
	}
}

func hasType(v *ojson.Value, t string) bool {
	switch t {
	case "object":
		return v.Kind() == ojson.Object
	case "string":
		return v.Kind() == ojson.String
	case "array":
		return v.Kind() == ojson.Array
	case "integer":
		f, ok := v.Number()
		return ok && f == math.Trunc(f) && !math.IsInf(f, 0)
	}
	return false
}

func kindName(v *ojson.Value) string {
	if f, ok := v.Number(); ok && f == math.Trunc(f) {
		return "integer"
	}
	return v.Kind().String()
}

// jsonEqual is JSON Schema's equality: numbers by value, objects without
// regard to member order.
func jsonEqual(a, b *ojson.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case ojson.Null:
		return true
	case ojson.Bool:
		x, _ := a.Bool()
		y, _ := b.Bool()
		return x == y
	case ojson.Number:
		x, _ := a.Number()
		y, _ := b.Number()
		return x == y
	case ojson.String:
		return a.Text() == b.Text()
	case ojson.Array:
		x, y := a.Items(), b.Items()
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !jsonEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		x, y := a.Obj(), b.Obj()
		if x.Len() != y.Len() {
			return false
		}
		for _, m := range x.Members() {
			w := y.Get(m.Key)
			if w == nil || !jsonEqual(m.Value, w) {
				return false
			}
		}
		return true
	}
}

// quoteString quotes a record's text for a one-line message: cut to a
// length, every control character, line separator and non-ASCII character
// escaped, so nothing the record holds reaches a terminal raw.
func quoteString(s string) string {
	const max = 80
	if utf8.RuneCountInString(s) > max {
		r := []rune(s)
		s = string(r[:max]) + "…"
	}
	return strconv.QuoteToASCII(s)
}

func quoteValue(v *ojson.Value) string {
	if s, ok := v.Str(); ok {
		return quoteString(s)
	}
	return strconv.QuoteToASCII(ojson.Brief(v, 80))
}

// isDateTime reports whether s is an RFC 3339 §5.6 date-time: T and Z in
// either case, a fraction of any length, a numeric offset within ±23:59,
// and a leap second only at 23:59:60 UTC.
func isDateTime(s string) bool {
	if len(s) < 20 || (s[10] != 'T' && s[10] != 't') || !isFullDate(s[:10]) {
		return false
	}
	t := s[11:]
	if len(t) < 9 || t[2] != ':' || t[5] != ':' {
		return false
	}
	h, ok1 := digits(t[0:2])
	mi, ok2 := digits(t[3:5])
	sec, ok3 := digits(t[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || mi > 59 || sec > 60 {
		return false
	}
	t = t[8:]
	if t[0] == '.' {
		i := 1
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == 1 {
			return false
		}
		t = t[i:]
	}
	offMin := 0
	switch {
	case t == "Z" || t == "z":
	case len(t) == 6 && (t[0] == '+' || t[0] == '-') && t[3] == ':':
		oh, ok1 := digits(t[1:3])
		om, ok2 := digits(t[4:6])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return false
		}
		offMin = oh*60 + om
		if t[0] == '-' {
			offMin = -offMin
		}
	default:
		return false
	}
	if sec == 60 {
		// Leap seconds are inserted at the end of a UTC day.
		utc := ((h*60+mi-offMin)%1440 + 1440) % 1440
		return utc == 23*60+59
	}
	return true
}

// isFullDate reports whether s is an RFC 3339 full-date with a real
// calendar day.
func isFullDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	y, ok1 := digits(s[0:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 {
		return false
	}
	days := [...]int{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m-1]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	return d <= days
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}
