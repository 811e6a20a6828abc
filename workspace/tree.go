package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// vkind is the kind of a vnode.
type vkind uint8

const (
	vScalar vkind = iota
	vMap
	vSeq
)

// vnode is a YAML node after Laktory's tags (!use, !extend, !update),
// aliases and merge keys are resolved. Every node remembers the file it comes
// from, so positions survive includes.
type vnode struct {
	kind  vkind
	tag   string // scalars: !!str, !!int, !!float, !!bool, !!null
	value string
	style yaml.Style
	// maps: keys[i] -> vals[i]; sequences: vals.
	keys []*vnode
	vals []*vnode
	file string
	line int
	col  int
	// external marks a scalar read from a whole file (a !use'd .sql file):
	// offsets into its value map to the file's own lines.
	external bool
}

func (n *vnode) pos() Pos { return Pos{File: n.file, Line: n.line, Col: n.col} }

func (n *vnode) isNull() bool { return n == nil || (n.kind == vScalar && n.tag == "!!null") }

// get returns the value of key in a mapping (the last one when repeated).
func (n *vnode) get(key string) *vnode {
	if n == nil || n.kind != vMap {
		return nil
	}
	for i := len(n.keys) - 1; i >= 0; i-- {
		if n.keys[i].value == key {
			return n.vals[i]
		}
	}
	return nil
}

// valsOf returns the items of a list (nil for anything else).
func (n *vnode) valsOf() []*vnode {
	if n == nil || n.kind != vSeq {
		return nil
	}
	return n.vals
}

func (n *vnode) kindName() string {
	switch {
	case n == nil || n.isNull():
		return "null"
	case n.kind == vMap:
		return "a mapping"
	case n.kind == vSeq:
		return "a list"
	case n.tag == "!!bool":
		return "a boolean"
	case n.tag == "!!int" || n.tag == "!!float":
		return "a number"
	}
	return "a string"
}

// rawFile is a file read and parsed by yaml.v3, before tag resolution.
type rawFile struct {
	content []byte
	doc     *yaml.Node // first document, nil when empty or broken
	err     error      // read error
	syntax  *Diagnostic
}

// rawCache holds the parsed files of a load; it is shared (read-only) by the
// next snapshot for the files that did not change.
type rawCache struct {
	mu    sync.Mutex
	files map[string]*rawFile
}

func newRawCache() *rawCache { return &rawCache{files: map[string]*rawFile{}} }

// clone copies the cache without the given paths (changed files).
func (c *rawCache) clone(drop map[string]bool) *rawCache {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := &rawCache{files: make(map[string]*rawFile, len(c.files))}
	for p, f := range c.files {
		if !drop[p] {
			n.files[p] = f
		}
	}
	return n
}

var yamlLineRe = regexp.MustCompile(`line (\d+)(?:, column (\d+))?`)

func (c *rawCache) get(path string) *rawFile {
	c.mu.Lock()
	f, ok := c.files[path]
	c.mu.Unlock()
	if ok {
		return f
	}
	f = parseRaw(path)
	c.mu.Lock()
	c.files[path] = f
	c.mu.Unlock()
	return f
}

func parseRaw(path string) *rawFile {
	b, err := readWorkspaceFile(path)
	if err != nil {
		return &rawFile{err: err}
	}
	f := &rawFile{content: b}
	b = trimBOM(b)
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		line, col := 1, 1
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			if m[2] != "" {
				col, _ = strconv.Atoi(m[2])
			}
			msg = strings.TrimSpace(yamlLineRe.ReplaceAllString(msg, ""))
			msg = strings.TrimPrefix(msg, ": ")
		}
		line, col, msg = syntaxAt(b, line, col, msg)
		d := NewDiagnostic(Pos{File: path, Line: line, Col: col}, SeverityError, CodeYAMLSyntax,
			"YAML syntax error: "+msg, "fix the YAML at this line (indentation, a missing ':' or an unclosed bracket or quote)")
		f.syntax = &d
		return f
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		f.doc = doc.Content[0]
	}
	return f
}

// MaxFileSize bounds a file the workspace reads (a pipeline, an included
// YAML or SQL file): a pipeline file is kilobytes, and `!use /dev/zero`
// must not exhaust memory.
const MaxFileSize = 8 << 20

// ErrNotRegular and ErrTooLarge: a workspace file (or a !use target) is not
// a regular file (a named pipe, a device, a socket) or is larger than
// MaxFileSize.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = fmt.Errorf("larger than %d MiB", MaxFileSize>>20)
)

// readWorkspaceFile reads a regular file of at most MaxFileSize bytes. It
// opens the file without blocking, so a named pipe put in place of a file
// cannot hang the load.
func readWorkspaceFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !st.Mode().IsRegular():
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, modeName(st.Mode()))}
	case st.Size() > MaxFileSize:
		return nil, &os.PathError{Op: "read", Path: path, Err: ErrTooLarge}
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err == nil && len(b) > MaxFileSize {
		err = &os.PathError{Op: "read", Path: path, Err: ErrTooLarge}
	}
	return b, err
}

func modeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a file"
}

func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// maxUseEntries bounds the files and folders `!use FOLDER` walks (`!use /`
// would walk the whole disk).
var maxUseEntries = 10_000

// maxNodes bounds the nodes one file may expand to through aliases and
// repeated includes (a node met again), so a "billion laughs" document
// cannot exhaust memory. The nodes written in the files themselves do not
// count: MaxFileSize bounds them, and a pipeline of 20,000 nodes (some
// 250,000 YAML nodes) is a legitimate file.
const maxNodes = 1 << 17

// expander turns yaml.v3 nodes into vnodes, resolving Laktory's tags.
type expander struct {
	cache *rawCache
	diags []Diagnostic
	deps  map[string]bool // included files and folders
	vars  map[string]string
	// count is the nodes met again (through an alias or an include of a
	// file met before); seen the nodes met.
	count int
	seen  map[*yaml.Node]bool
	// loading is the include stack (cycle detection).
	loading []string
	// aliasing is the alias stack (recursive aliases).
	aliasing []*yaml.Node
}

func (e *expander) errorf(p Pos, code, hint, format string, args ...any) {
	e.diags = append(e.diags, NewDiagnostic(p, SeverityError, code, fmt.Sprintf(format, args...), hint))
}

// expandFile expands the document of path (the root of a load, or an
// included file).
func (e *expander) expandFile(path string, at Pos) *vnode {
	f := e.cache.get(path)
	if f.err != nil {
		e.errorf(at, CodeReadFile, "check the path and the file's permissions", "cannot read %s: %v", path, unwrapPathErr(f.err))
		return nil
	}
	if f.syntax != nil {
		e.diags = append(e.diags, *f.syntax)
		return nil
	}
	e.includeSyntax(path, f.content)
	if f.doc == nil {
		return &vnode{kind: vScalar, tag: "!!null", file: path, line: 1, col: 1}
	}
	e.loading = append(e.loading, path)
	defer func() { e.loading = e.loading[:len(e.loading)-1] }()
	return e.node(f.doc, path)
}

// includeSyntax: Laktory 0.13.1's loader (RecursiveLoader.preprocess_stream)
// refuses a YAML file any line of which holds `${include.`, the syntax
// `!use` replaced in 0.6.0, even in a comment.
func (e *expander) includeSyntax(path string, content []byte) {
	for i, line := range strings.Split(string(content), "\n") {
		if col := strings.Index(line, "${include."); col >= 0 {
			e.errorf(Pos{File: path, Line: i + 1, Col: utf8.RuneCountInString(line[:col]) + 1}, CodeRenamed,
				"include the file with `!use FILE` (or merge it with `!update FILE`, append it with `!extend FILE`)",
				"The `${include.}` syntax has been deprecated in laktory 0.6.0. Please use `!use`, `!update` and `!extend` tags instead.")
		}
	}
}

func unwrapPathErr(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

func (e *expander) node(n *yaml.Node, file string) *vnode {
	if e.seen == nil {
		e.seen = map[*yaml.Node]bool{}
	}
	if e.seen[n] {
		e.count++
	}
	e.seen[n] = true
	if e.count > maxNodes {
		if e.count == maxNodes+1 {
			e.errorf(Pos{File: file, Line: n.Line, Col: n.Column}, CodeYAMLSyntax,
				"avoid aliases that expand recursively, and including one file many times",
				"the document expands to more than %d nodes through aliases and repeated includes", maxNodes)
		}
		return nil
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil || slices.Contains(e.aliasing, n.Alias) {
			e.errorf(Pos{File: file, Line: n.Line, Col: n.Column}, CodeYAMLSyntax, "an alias cannot refer to a node that contains it", "recursive alias *%s", n.Value)
			return nil
		}
		e.aliasing = append(e.aliasing, n.Alias)
		v := e.node(n.Alias, file)
		e.aliasing = e.aliasing[:len(e.aliasing)-1]
		return v
	case yaml.ScalarNode:
		switch n.Tag {
		case "!use":
			return e.use(n, file)
		case "!extend", "!update":
			e.errorf(Pos{File: file, Line: n.Line, Col: n.Column}, CodeInclude,
				"use `- !extend file` as a list item and `<<: !update file` as a mapping key",
				"%s is not allowed here", n.Tag)
			return nil
		}
		tag := n.ShortTag()
		if strings.HasPrefix(tag, "!") && !strings.HasPrefix(tag, "!!") {
			tag = "!!str" // unknown local tags: keep the text
		}
		if yaml11Bool(n) {
			tag = "!!bool"
		}
		return &vnode{kind: vScalar, tag: tag, value: n.Value, style: n.Style, file: file, line: n.Line, col: n.Column}
	case yaml.SequenceNode:
		v := &vnode{kind: vSeq, file: file, line: n.Line, col: n.Column}
		for _, c := range n.Content {
			if c.Kind == yaml.ScalarNode && c.Tag == "!extend" {
				if t := e.include(c, file, "!extend"); t != nil {
					if t.kind != vSeq {
						e.errorf(Pos{File: file, Line: c.Line, Col: c.Column}, CodeInclude, "an !extend file holds a YAML list",
							"expected a list in %s, but got %s", c.Value, t.kindName())
						continue
					}
					v.vals = append(v.vals, t.vals...)
				}
				continue
			}
			if cv := e.node(c, file); cv != nil {
				v.vals = append(v.vals, cv)
			}
		}
		return v
	case yaml.MappingNode:
		return e.mapping(n, file)
	}
	return nil
}

func (e *expander) mapping(n *yaml.Node, file string) *vnode {
	// Unquoted {nodes.x} / {sources.x} are flow mappings in YAML: Laktory
	// reads them back as the string reference.
	if n.Style&yaml.FlowStyle != 0 && len(n.Content) == 2 {
		k, val := n.Content[0], n.Content[1]
		if k.Kind == yaml.ScalarNode && (strings.HasPrefix(k.Value, "nodes.") || strings.HasPrefix(k.Value, "sources.")) &&
			val.Kind == yaml.ScalarNode && val.ShortTag() == "!!null" && val.Value == "" {
			return &vnode{kind: vScalar, tag: "!!str", value: "{" + k.Value + "}", file: file, line: n.Line, col: n.Column}
		}
	}
	v := &vnode{kind: vMap, file: file, line: n.Line, col: n.Column}
	// A key set again (merge keys, duplicates) keeps its place and takes the
	// new value, as a Python dict update does.
	index := map[string]int{}
	set := func(k, val *vnode) {
		if i, ok := index[k.value]; ok {
			v.keys[i], v.vals[i] = k, val
			return
		}
		index[k.value] = len(v.keys)
		v.keys = append(v.keys, k)
		v.vals = append(v.vals, val)
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind == yaml.ScalarNode && (kn.ShortTag() == "!!merge" || kn.Value == "<<") {
			for _, m := range e.mergeSources(vn, file) {
				for j := range m.keys {
					set(m.keys[j], m.vals[j])
				}
			}
			continue
		}
		if kn.Kind != yaml.ScalarNode {
			e.errorf(Pos{File: file, Line: kn.Line, Col: kn.Column}, CodeWrongType, "keys are plain names", "a mapping key must be a string")
			continue
		}
		if seen[kn.Value] {
			e.errorf(Pos{File: file, Line: kn.Line, Col: kn.Column}, CodeDuplicateKey, "remove one of them: the last one wins",
				"key `%s` is declared twice in this mapping", kn.Value)
		}
		seen[kn.Value] = true
		if yaml11Bool(kn) {
			e.errorf(Pos{File: file, Line: kn.Line, Col: kn.Column}, CodeWrongType, fmt.Sprintf("quote the key: \"%s\":", kn.Value),
				"Input should be a valid string: YAML 1.1 (PyYAML, Laktory's loader) reads the unquoted key `%s` as the boolean %v",
				kn.Value, pyBoolValue(kn.Value))
		}
		k := &vnode{kind: vScalar, tag: "!!str", value: kn.Value, file: file, line: kn.Line, col: kn.Column}
		val := e.node(vn, file)
		if val == nil {
			val = &vnode{kind: vScalar, tag: "!!null", file: file, line: vn.Line, col: vn.Column}
		}
		set(k, val)
	}
	return v
}

// mergeSources returns the mappings merged by a `<<` key: an !update file,
// an alias or a mapping, or a list of those.
func (e *expander) mergeSources(n *yaml.Node, file string) []*vnode {
	if n.Kind == yaml.ScalarNode && n.Tag == "!update" {
		t := e.include(n, file, "!update")
		if t == nil {
			return nil
		}
		if t.kind != vMap {
			e.errorf(Pos{File: file, Line: n.Line, Col: n.Column}, CodeInclude, "an !update file holds a YAML mapping",
				"expected a mapping in %s, but got %s", n.Value, t.kindName())
			return nil
		}
		return []*vnode{t}
	}
	if n.Kind == yaml.SequenceNode {
		var out []*vnode
		for _, c := range n.Content {
			out = append(out, e.mergeSources(c, file)...)
		}
		return out
	}
	v := e.node(n, file)
	if v == nil {
		return nil
	}
	if v.kind != vMap {
		e.errorf(Pos{File: file, Line: n.Line, Col: n.Column}, CodeWrongType, "merge a mapping: `<<: !update file.yaml` or `<<: *anchor`",
			"`<<` expects a mapping, got %s", v.kindName())
		return nil
	}
	return []*vnode{v}
}

var includeVarRe = regexp.MustCompile(`\$\{vars?\.([a-zA-Z_][a-zA-Z0-9_]*)\}`)

// includePath resolves the path of an include tag: variables first, then
// relative to the including file.
func (e *expander) includePath(n *yaml.Node, file, tag string) (string, bool) {
	p := n.Value
	if strings.Contains(p, "${") {
		p = includeVarRe.ReplaceAllStringFunc(p, func(m string) string {
			name := strings.ToLower(includeVarRe.FindStringSubmatch(m)[1])
			if v, ok := e.vars[name]; ok {
				return v
			}
			return m
		})
		if includeVarRe.MatchString(p) {
			e.errorf(Pos{File: file, Line: n.Line, Col: n.Column}, CodeInclude,
				"include paths may use the stack environment (${vars.env}) and --var variables only",
				"some variables in %s path %q could not be resolved", tag, n.Value)
			return "", false
		}
	}
	if p == "" {
		e.errorf(Pos{File: file, Line: n.Line, Col: n.Column}, CodeInclude, "write the file to include after the tag", "%s needs a path", tag)
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(file), p)
	}
	return filepath.Clean(p), true
}

// include loads the YAML file named by an !extend or !update tag.
func (e *expander) include(n *yaml.Node, file, tag string) *vnode {
	p, ok := e.includePath(n, file, tag)
	if !ok {
		return nil
	}
	at := Pos{File: file, Line: n.Line, Col: n.Column}
	e.deps[p] = true
	if slices.Contains(e.loading, p) {
		e.errorf(at, CodeInclude, "break the cycle: a file cannot include itself, directly or not",
			"circular %s reference: %s is already being loaded", tag, relTo(file, p))
		return nil
	}
	if _, err := os.Stat(p); err != nil {
		e.errorf(at, CodeInclude, "check the path: it is relative to the including file's folder",
			"%s target not found: %s", tag, relTo(file, p))
		return nil
	}
	return e.expandFile(p, at)
}

// use resolves !use: a .sql file becomes a string, a folder the list of its
// YAML files, a YAML file its content.
func (e *expander) use(n *yaml.Node, file string) *vnode {
	p, ok := e.includePath(n, file, "!use")
	if !ok {
		return nil
	}
	at := Pos{File: file, Line: n.Line, Col: n.Column}
	e.deps[p] = true
	st, err := os.Stat(p)
	if err != nil {
		e.errorf(at, CodeInclude, "check the path: it is relative to the including file's folder", "!use target not found: %s", relTo(file, p))
		return nil
	}
	if strings.HasSuffix(p, ".sql") {
		f := e.cache.get(p)
		if f.err != nil {
			e.errorf(at, CodeReadFile, "check the file's permissions", "cannot read %s: %v", p, unwrapPathErr(f.err))
			return nil
		}
		return &vnode{kind: vScalar, tag: "!!str", value: string(trimBOM(f.content)), file: p, line: 1, col: 1, external: true}
	}
	if st.IsDir() {
		var files []string
		seen := 0
		_ = filepath.WalkDir(p, func(q string, d os.DirEntry, err error) error {
			if seen++; seen > maxUseEntries {
				return filepath.SkipAll
			}
			if err == nil && !d.IsDir() && isYAML(q) {
				files = append(files, q)
			}
			return nil
		})
		if seen > maxUseEntries {
			e.errorf(at, CodeInclude, "!use a folder of pipeline files, not a tree as large as this one",
				"!use %s: the folder holds more than %d files and folders", relTo(file, p), maxUseEntries)
			return nil
		}
		slices.Sort(files)
		v := &vnode{kind: vSeq, file: file, line: n.Line, col: n.Column}
		for _, q := range files {
			e.deps[q] = true
			if slices.Contains(e.loading, q) {
				e.errorf(at, CodeInclude, "break the cycle", "circular !use reference: %s is already being loaded", relTo(file, q))
				continue
			}
			if t := e.expandFile(q, at); t != nil {
				v.vals = append(v.vals, t)
			}
		}
		return v
	}
	if slices.Contains(e.loading, p) {
		e.errorf(at, CodeInclude, "break the cycle: a file cannot include itself, directly or not",
			"circular !use reference: %s is already being loaded", relTo(file, p))
		return nil
	}
	return e.expandFile(p, at)
}

// yaml11Bools are the plain scalars PyYAML (YAML 1.1) reads as booleans:
// Laktory sees these, where yaml.v3 (YAML 1.2) reads on/off/yes/no as
// strings. PyYAML reads y and n as strings, and only these three spellings.
var yaml11Bools = map[string]bool{
	"yes": true, "Yes": true, "YES": true, "on": true, "On": true, "ON": true, "true": true, "True": true, "TRUE": true,
	"no": false, "No": false, "NO": false, "off": false, "Off": false, "OFF": false, "false": false, "False": false, "FALSE": false,
}

// yaml11Bool reports whether n is a plain, untagged scalar PyYAML reads as
// a boolean.
func yaml11Bool(n *yaml.Node) bool {
	_, ok := yaml11Bools[n.Value]
	return ok && n.Kind == yaml.ScalarNode && n.Style&(yaml.TaggedStyle|yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
}

func pyBoolValue(s string) bool { return yaml11Bools[s] }

func isYAML(p string) bool {
	ext := strings.ToLower(filepath.Ext(p))
	return ext == ".yaml" || ext == ".yml"
}

func relTo(from, p string) string {
	if r, err := filepath.Rel(filepath.Dir(from), p); err == nil {
		return r
	}
	return p
}

// mergeInto deep-merges src into dst (mappings key by key, anything else
// replaced), as a stack environment's resources override the defaults.
func mergeInto(dst, src *vnode) *vnode {
	if dst == nil || dst.kind != vMap || src == nil || src.kind != vMap {
		return src
	}
	out := &vnode{kind: vMap, file: dst.file, line: dst.line, col: dst.col,
		keys: slices.Clone(dst.keys), vals: slices.Clone(dst.vals)}
	index := make(map[string]int, len(out.keys))
	for i, k := range out.keys {
		index[k.value] = i
	}
	for i, k := range src.keys {
		if j, ok := index[k.value]; ok {
			out.vals[j] = mergeInto(out.vals[j], src.vals[i])
			continue
		}
		index[k.value] = len(out.keys)
		out.keys = append(out.keys, k)
		out.vals = append(out.vals, src.vals[i])
	}
	return out
}
