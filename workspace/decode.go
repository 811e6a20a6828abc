package workspace

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// decoder turns vnodes into the model, strictly: unknown keys, wrong types
// and values outside an enum become diagnostics, and decoding goes on.
type decoder struct {
	diags  []Diagnostic
	scope  *scope
	getenv func(string) string
	layout Layout
	warned map[Pos]bool
	// runParams are the run's --param values; params the values of the
	// pipeline being decoded (run value, else default).
	runParams map[string]string
	params    map[string]string
	// expanded counts the bytes ${vars.x} substitution produced (bounded
	// by MaxExpandedTotal).
	expanded int
}

func newDecoder(layout Layout, opts Options, sc *scope) *decoder {
	return &decoder{layout: layout, getenv: opts.Getenv, runParams: opts.Params, scope: sc, warned: map[Pos]bool{}}
}

// tableID is the identity of a table named by table_name.
func (d *decoder) tableID(name string, r *TableRef) TableID {
	if r == nil || strings.Contains(name, "${") {
		return ""
	}
	if d.layout.RemoteLake() {
		return TableID(d.layout.TablePath(*r))
	}
	return TableID(filepath.Clean(d.layout.TablePath(*r)))
}

func (d *decoder) add(p Pos, sev Severity, code, msg, hint string) {
	d.diags = append(d.diags, NewDiagnostic(p, sev, code, msg, hint))
}

func (d *decoder) errorf(p Pos, code, hint, format string, args ...any) {
	d.add(p, SeverityError, code, fmt.Sprintf(format, args...), hint)
}

// obj is a YAML mapping being decoded into a model object.
type obj struct {
	d    *decoder
	n    *vnode
	what string
	loc  Located
}

// object starts decoding mapping n (after variable substitution). It reports
// a wrong type and returns nil when n is not a mapping.
func (d *decoder) object(n *vnode, what string) *obj {
	n = d.resolve(n)
	if n == nil || n.kind != vMap {
		if n != nil {
			d.errorf(n.pos(), CodeWrongType, fmt.Sprintf("write %s as a mapping of `key: value` lines", what),
				"%s must be a mapping, got %s", what, n.kindName())
		}
		return nil
	}
	o := &obj{d: d, n: n, what: what, loc: Located{Pos: n.pos(), Fields: make(map[string]Pos, len(n.keys))}}
	for i, k := range n.keys {
		o.loc.Fields[k.value] = n.vals[i].pos()
	}
	return o
}

// check reports the keys of the mapping that are not in allowed, with a
// suggestion for the closest allowed key.
func (o *obj) check(allowed ...[]string) {
	var all []string
	for _, a := range allowed {
		all = append(all, a...)
	}
	for _, k := range o.n.keys {
		if slices.Contains(all, k.value) {
			continue
		}
		msg := fmt.Sprintf("Extra inputs are not permitted: unknown key `%s` in %s", k.value, o.what)
		hint := "allowed keys: " + strings.Join(visibleKeys(all), ", ")
		if h, ok := misplacedKeys[k.value]; ok {
			msg += "; " + h
		} else if s := suggest(k.value, all); s != "" {
			msg += fmt.Sprintf("; did you mean `%s`?", s)
		}
		o.d.add(k.pos(), SeverityError, CodeUnknownKey, msg, hint)
	}
}

// misplacedKeys explains keys other tools or Laktory versions accept where
// Laktory 0.13.1 does not.
var misplacedKeys = map[string]string{
	"reset_mode": "Laktory 0.13.1 has `reset_mode` on sinks only: set it on each sink",
}

// visibleKeys drops pydantic's trailing-underscore aliases from hints.
func visibleKeys(keys []string) []string {
	var out []string
	for _, k := range keys {
		if !strings.HasSuffix(k, "_") && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// raw returns the value of key (variables substituted), nil when absent.
func (o *obj) raw(key string) *vnode {
	return o.d.resolve(o.n.get(key))
}

// rawAny returns the first key present among keys (pydantic aliases).
func (o *obj) rawAny(keys ...string) (*vnode, string) {
	for _, k := range keys {
		if v := o.raw(k); v != nil {
			return v, k
		}
	}
	return nil, ""
}

func (o *obj) has(key string) bool { return o.n.get(key) != nil }

func (o *obj) typeErr(key string, v *vnode, want string) {
	o.d.errorf(v.pos(), CodeWrongType, fmt.Sprintf("write %s", want), "`%s` in %s must be %s, got %s", key, o.what, want, v.kindName())
}

// str reads a string field ("" when absent or null). Numbers and booleans
// are accepted as their text.
func (o *obj) str(key string) string {
	v := o.raw(key)
	if v.isNull() {
		return ""
	}
	if v.kind != vScalar {
		o.typeErr(key, v, "a string")
		return ""
	}
	return v.value
}

// strAny reads the first of several alias keys.
func (o *obj) strAny(keys ...string) string {
	for _, k := range keys {
		if o.has(k) {
			return o.str(k)
		}
	}
	return ""
}

// required reads a string field that must be set.
func (o *obj) required(key string) string {
	if !o.has(key) || o.raw(key).isNull() {
		o.d.errorf(o.loc.Pos, CodeMissingField, fmt.Sprintf("add `%s:` to %s", key, o.what), "%s needs `%s`", o.what, key)
		return ""
	}
	return o.str(key)
}

// boolean reads a bool field (false when absent).
func (o *obj) boolean(key string) bool {
	b, _ := o.optBool(key)
	return b
}

func (o *obj) optBool(key string) (bool, bool) {
	v := o.raw(key)
	if v.isNull() {
		return false, false
	}
	if v.kind == vScalar {
		switch strings.ToLower(v.value) {
		case "true", "yes", "on", "1":
			if v.tag == "!!bool" || v.tag == "!!str" || v.tag == "!!int" {
				return true, true
			}
		case "false", "no", "off", "0":
			if v.tag == "!!bool" || v.tag == "!!str" || v.tag == "!!int" {
				return false, true
			}
		}
	}
	o.typeErr(key, v, "true or false")
	return false, false
}

// enum reads a string field that must be one of allowed (case-sensitive, as
// Laktory's Literal fields). A value matching case-insensitively is
// reported with the right spelling.
func (o *obj) enum(key string, allowed []string) string {
	s := o.str(key)
	if s == "" || slices.Contains(allowed, s) || strings.Contains(s, "${") {
		return s
	}
	o.badEnum(key, s, allowed, SeverityError)
	return s
}

func (o *obj) badEnum(key, s string, allowed []string, sev Severity) {
	msg := fmt.Sprintf("`%s: %s` in %s is not allowed", key, s, o.what)
	if m := suggest(s, allowed); m != "" {
		msg += fmt.Sprintf("; did you mean `%s`?", m)
	}
	o.d.add(o.loc.At(key), sev, CodeBadEnum, msg, "allowed values: "+strings.Join(allowed, ", "))
}

// list reads a list field (items with variables substituted).
func (o *obj) list(key string) []*vnode {
	v := o.raw(key)
	if v.isNull() {
		return nil
	}
	if v.kind != vSeq {
		o.typeErr(key, v, "a list")
		return nil
	}
	return v.vals
}

// strList reads a list of strings.
func (o *obj) strList(key string) []string {
	var out []string
	for _, it := range o.list(key) {
		it = o.d.resolve(it)
		if it.kind != vScalar || it.isNull() {
			o.d.errorf(it.pos(), CodeWrongType, "write one name per list item", "items of `%s` in %s must be strings, got %s", key, o.what, it.kindName())
			continue
		}
		out = append(out, it.value)
	}
	return out
}

// strMap reads a mapping of strings.
func (o *obj) strMap(key string) map[string]string {
	v := o.raw(key)
	if v.isNull() {
		return nil
	}
	if v.kind != vMap {
		o.typeErr(key, v, "a mapping")
		return nil
	}
	m := make(map[string]string, len(v.keys))
	for i, k := range v.keys {
		val := o.d.resolve(v.vals[i])
		if val.kind != vScalar {
			o.d.errorf(val.pos(), CodeWrongType, "write `key: value` pairs", "values of `%s` in %s must be strings, got %s", key, o.what, val.kindName())
			continue
		}
		m[k.value] = val.value
	}
	return m
}

// renames reads an ordered mapping of strings.
func (o *obj) renames(key string) []Rename {
	v := o.raw(key)
	if v.isNull() {
		return nil
	}
	if v.kind != vMap {
		o.typeErr(key, v, "a mapping of `old: new` names")
		return nil
	}
	var out []Rename
	for i, k := range v.keys {
		val := o.d.resolve(v.vals[i])
		if val.kind != vScalar || val.isNull() {
			o.d.errorf(val.pos(), CodeWrongType, "write `old_name: new_name`", "values of `%s` in %s must be column names, got %s", key, o.what, val.kindName())
			continue
		}
		out = append(out, Rename{From: k.value, To: val.value})
	}
	return out
}

// anyMap reads a mapping of arbitrary values.
func (o *obj) anyMap(key string) map[string]any {
	v := o.raw(key)
	if v.isNull() {
		return nil
	}
	if v.kind != vMap {
		o.typeErr(key, v, "a mapping")
		return nil
	}
	m, _ := o.d.toAny(v).(map[string]any)
	return m
}

// toAny converts a vnode to plain Go values, substituting variables.
func (d *decoder) toAny(n *vnode) any {
	n = d.resolve(n)
	if n == nil {
		return nil
	}
	switch n.kind {
	case vMap:
		m := make(map[string]any, len(n.keys))
		for i, k := range n.keys {
			m[k.value] = d.toAny(n.vals[i])
		}
		return m
	case vSeq:
		s := make([]any, 0, len(n.vals))
		for _, c := range n.vals {
			s = append(s, d.toAny(c))
		}
		return s
	}
	return scalarValue(n)
}

func scalarValue(n *vnode) any {
	switch n.tag {
	case "!!null":
		return nil
	case "!!bool":
		return pyBoolValue(n.value)
	case "!!int":
		s := strings.ReplaceAll(n.value, "_", "")
		if i, err := strconv.ParseInt(s, 0, 64); err == nil {
			return i
		}
		if strings.HasPrefix(s, "0o") {
			if i, err := strconv.ParseInt(s[2:], 8, 64); err == nil {
				return i
			}
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
	case "!!float":
		switch strings.ToLower(n.value) {
		case ".inf", "+.inf":
			return math.Inf(1)
		case "-.inf":
			return math.Inf(-1)
		case ".nan":
			return math.NaN()
		}
		if f, err := strconv.ParseFloat(strings.ReplaceAll(n.value, "_", ""), 64); err == nil {
			return f
		}
	}
	return n.value
}

// Suggest returns the value of allowed closest to s (a likely typo), or ""
// when none is close.
func Suggest(s string, allowed []string) string { return suggest(s, allowed) }

// suggest returns the allowed value closest to s, or "" when none is close.
func suggest(s string, allowed []string) string {
	best, bestD := "", math.MaxInt
	ls := strings.ToLower(s)
	for _, a := range allowed {
		if strings.HasSuffix(a, "_") {
			continue
		}
		la := strings.ToLower(a)
		if la == ls {
			return a
		}
		dist := levenshtein(ls, la)
		if strings.HasPrefix(la, ls) || strings.HasPrefix(ls, la) {
			dist = min(dist, 2)
		}
		if dist < bestD {
			best, bestD = a, dist
		}
	}
	limit := max(2, len(s)/3)
	if bestD <= limit {
		return best
	}
	return ""
}

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := 1
			if ra[i-1] == rb[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
