package schemaflow

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/inline"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// Flow checks workspaces against their inputs' schemas, keeping what it
// read and bound for the next check. It is safe for concurrent use (checks
// run one at a time).
type Flow struct {
	eng  Engine
	opts Options

	mu     sync.Mutex             // one check at a time
	files  map[string]fileEntry   // FileVersion -> schema
	tables map[string]*tableEntry // table folder -> schema at a version
	// nodes holds each node's last binding; nodesMu guards it while a
	// check binds in parallel.
	nodesMu sync.Mutex
	nodes   map[string]nodeEntry
	binds   atomic.Int64 // Engine.Bind calls
	reads   atomic.Int64 // schemas read (FileSchema, Delta logs)
	asked   int64        // a node's inputs looked up (under mu; the tests' measure of the rounds' work)
	// loaded are the store files merged in; dirty: the caches changed
	// since the last save.
	loaded map[string]bool
	dirty  bool
}

type fileEntry struct {
	cols []Column
	err  error
}

type tableEntry struct {
	version int64
	// stamp identifies the version's commit file (size and modification
	// time): a table dropped and created again has another version 0.
	stamp  string
	exists bool
	cols   []Column
	err    error
}

type nodeEntry struct {
	key string // the input schemas it was bound with
	out Output
	err error
}

// New returns a flow over an engine.
func New(e Engine, opts Options) *Flow {
	return &Flow{eng: e, opts: opts, files: map[string]fileEntry{}, tables: map[string]*tableEntry{}, nodes: map[string]nodeEntry{},
		loaded: map[string]bool{}}
}

// Binds counts the nodes bound by the engine since New (a cached node is
// not bound again).
func (f *Flow) Binds() int64 { return f.binds.Load() }

// Reads counts the schemas read since New: file schemas inferred and Delta
// logs replayed (a cached version is not read again).
func (f *Flow) Reads() int64 { return f.reads.Load() }

// Result is what a check found.
type Result struct {
	// Diagnostics are sorted by file, line and column.
	Diagnostics []workspace.Diagnostic
	// TableColumns are the columns each table has or will have (see
	// validate.Options.TableColumns), for the tables whose columns are
	// known.
	TableColumns map[workspace.TableID][]string
	// TableColumnTypes are the DuckDB types of those columns, by lower
	// case name (see validate.Options.TableColumnTypes).
	TableColumnTypes map[workspace.TableID]map[string]string
	// SinkSchemas are the columns each Delta sink of a checked node
	// writes, with their Delta types, in the nodes' order (sinks of nodes
	// whose output is not known are left out).
	SinkSchemas []SinkSchema
}

// SinkSchema is the schema a Delta sink writes: its columns in order, each
// with the Delta type the sink's backend writes it as (as a POLARS sink
// writes a Polars dtype: delta-rs' type, TestPolarsDeltaTypes).
type SinkSchema struct {
	Pipeline, Node string
	Sink           *workspace.Sink
	Columns        []SinkColumn
}

// SinkColumn is a column a sink writes: its Delta type in Spark's notation
// (long, timestamp_ntz, array<short>), or "" with Problem saying why a
// Delta table cannot store it.
type SinkColumn struct {
	Name, Type, Problem string
}

// nodeState is a node during a check.
type nodeState struct {
	p *workspace.Pipeline
	n *workspace.Node
	// id identifies the node's definition (see nodeID).
	id   string
	done bool
	// cols is the output (nil when not known: a problem, an unknown input).
	cols []Column
	out  Output
	// err is why the engine could not bind it (ErrUnchecked: on purpose).
	err error
	// waitsOn is the node of the pipeline whose output it last waited for
	// (nil: none, or a table): until that one is done, it still waits.
	waitsOn *nodeState
}

type status uint8

const (
	ready   status = iota
	waiting        // an input is a node not bound yet
	unknown        // an input's schema cannot be known
)

// check is one Check in progress.
type check struct {
	f     *Flow
	ctx   context.Context
	snap  *workspace.Snapshot
	nodes map[*workspace.Node]*nodeState
	order []*nodeState
	diags []workspace.Diagnostic
	// seen are the cache keys used, to forget the others.
	seenFiles  map[string]bool
	seenTables map[string]bool
	// versions and disk memoize FileVersion and onDisk within the check
	// (a node waiting for another asks again each round).
	versions map[*workspace.Source]string
	disk     map[string]*tableEntry
	// fileIDs are the definitions' fingerprints of the pipeline files.
	fileIDs map[string]string
}

// Check binds every node of the snapshot against its inputs' schemas and
// checks its sinks; with pipelines named, only their nodes and the nodes
// whose outputs they read (through node_name, {nodes.x}, or tables no run
// wrote yet). It fails only when ctx is done.
func (f *Flow) Check(ctx context.Context, snap *workspace.Snapshot, pipelines ...string) (Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := &check{f: f, ctx: ctx, snap: snap, nodes: map[*workspace.Node]*nodeState{}, seenFiles: map[string]bool{}, seenTables: map[string]bool{},
		versions: map[*workspace.Source]string{}, disk: map[string]*tableEntry{}, fileIDs: map[string]string{}}
	f.load(snap)
	c.scope(pipelines)
	if err := c.run(); err != nil {
		return Result{}, err
	}
	cols, types := c.tableColumns()
	res := Result{TableColumns: cols, TableColumnTypes: types}
	for _, ns := range c.order {
		c.problems(ns, res.TableColumns)
		if ns.cols != nil {
			c.sinks(ns)
			res.SinkSchemas = append(res.SinkSchemas, c.sinkSchemas(ns)...)
		}
	}
	if len(pipelines) == 0 {
		f.forget(c)
	}
	f.save(snap)
	res.Diagnostics = workspace.SortDiagnostics(c.diags)
	return res, nil
}

// scope lists the nodes to check: every node, or those of the named
// pipelines and, transitively, the nodes whose outputs they read.
func (c *check) scope(pipelines []string) {
	add := func(p *workspace.Pipeline, n *workspace.Node) bool {
		if n == nil || c.nodes[n] != nil {
			return false
		}
		ns := &nodeState{p: p, n: n, id: c.nodeID(p, slices.Index(p.Nodes, n))}
		c.nodes[n] = ns
		c.order = append(c.order, ns)
		return true
	}
	for _, p := range c.snap.Pipelines {
		if len(pipelines) == 0 || slices.Contains(pipelines, p.Name) {
			for _, n := range p.Nodes {
				add(p, n)
			}
		}
	}
	if len(pipelines) == 0 {
		return
	}
	for i := 0; i < len(c.order); i++ {
		ns := c.order[i]
		for _, src := range ns.n.Sources {
			switch {
			case src.Kind == workspace.SourceNode:
				add(ns.p, ns.p.Node(src.NodeName))
			case src.Table != "" && !c.onDisk(string(src.Table)).exists:
				if t := c.snap.Table(src.Table); t != nil {
					for _, w := range t.Writers {
						add(c.snap.Pipeline(w.Pipeline), c.snap.Node(w.Pipeline, w.Node))
					}
				}
			}
		}
		for _, r := range ns.n.NodeRefs {
			add(ns.p, ns.p.Node(r.Name))
		}
	}
}

// run binds the nodes in rounds: each round binds, in parallel, the nodes
// whose inputs are all known.
func (c *check) run() error {
	pending := c.order
	for len(pending) > 0 {
		var todo []*nodeState
		var ins []Input
		var still []*nodeState
		for _, ns := range pending {
			if ns.waitsOn != nil && !ns.waitsOn.done {
				// Not worth asking again: a chain of 20,000 nodes is
				// 20,000 rounds, each over the nodes still pending.
				still = append(still, ns)
				continue
			}
			ns.waitsOn = nil
			c.f.asked++
			in, st := c.inputs(ns)
			switch st {
			case ready:
				todo = append(todo, ns)
				ins = append(ins, in)
			case waiting:
				still = append(still, ns)
			default:
				ns.done = true
			}
		}
		if err := c.ctx.Err(); err != nil {
			return err
		}
		if len(todo) == 0 && len(still) == len(pending) {
			break // a cycle through tables no run wrote: unknown
		}
		if err := c.bindAll(todo, ins); err != nil {
			return err
		}
		pending = still
	}
	for _, ns := range pending {
		ns.done = true
	}
	return nil
}

// bindAll binds nodes in parallel (each from the cache when its inputs
// have not changed).
func (c *check) bindAll(todo []*nodeState, ins []Input) error {
	jobs := make(chan int)
	errs := make([]error, len(todo))
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				errs[i] = c.bind(todo[i], ins[i])
			}
		}()
	}
	for i := range todo {
		if c.ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := c.ctx.Err(); err != nil {
		return err
	}
	return errors.Join(errs...)
}

func (c *check) bind(ns *nodeState, in Input) error {
	ns.done = true
	key := inputKey(in)
	f := c.f
	f.nodesMu.Lock()
	e, ok := f.nodes[ns.id]
	f.nodesMu.Unlock()
	if !ok || e.key != key {
		f.binds.Add(1)
		out, err := f.eng.Bind(c.ctx, in)
		if c.ctx.Err() != nil {
			return c.ctx.Err()
		}
		e = nodeEntry{key: key, out: out, err: err}
		f.nodesMu.Lock()
		f.nodes[ns.id] = e
		f.dirty = true
		f.nodesMu.Unlock()
	}
	ns.out, ns.cols, ns.err = e.out, e.out.Columns, e.err
	if e.err != nil {
		ns.cols = nil
	}
	return nil
}

// nodeID identifies node i of pipeline p by what defines it: its file's
// content and the files it includes, the lake and the environment of the
// snapshot (a fresh load of unchanged files gives the same ids; variables
// read from the process environment are assumed not to change).
func (c *check) nodeID(p *workspace.Pipeline, i int) string {
	id, ok := c.fileIDs[p.File]
	if !ok {
		h := sha256.New()
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%q\x00", c.snap.Layout.Lake, c.snap.Env, p.File, c.snap.Layout.Roots)
		h.Write(c.snap.Content(p.File))
		for _, d := range c.snap.Deps(p.File) {
			fmt.Fprintf(h, "\x00%s\x00", d)
			h.Write(c.snap.Content(d))
		}
		id = string(h.Sum(nil))
		c.fileIDs[p.File] = id
	}
	return id + p.Name + "\x00" + strconv.Itoa(i)
}

// inputKey identifies the schemas a node is bound with.
func inputKey(in Input) string {
	var b strings.Builder
	for _, cols := range in.Sources {
		writeColumns(&b, cols)
		b.WriteByte('\n')
	}
	for _, name := range slices.Sorted(maps.Keys(in.Nodes)) {
		b.WriteString(name)
		b.WriteByte('=')
		writeColumns(&b, in.Nodes[name])
		b.WriteByte('\n')
	}
	return b.String()
}

func writeColumns(b *strings.Builder, cols []Column) {
	for _, c := range cols {
		fmt.Fprintf(b, "%q %q,", c.Name, c.Type)
	}
}

// inputs gathers the columns of what a node reads.
func (c *check) inputs(ns *nodeState) (Input, status) {
	in := Input{Pipeline: ns.p, Node: ns.n, Sources: make([][]Column, len(ns.n.Sources))}
	worst := ready
	for i, src := range ns.n.Sources {
		cols, st := c.source(ns, src)
		worst = max(worst, st)
		in.Sources[i] = cols
	}
	for _, r := range ns.n.NodeRefs {
		if _, ok := in.Nodes[r.Name]; ok {
			continue
		}
		cols, st := c.nodeOutput(ns, r.Name)
		worst = max(worst, st)
		if in.Nodes == nil {
			in.Nodes = map[string][]Column{}
		}
		in.Nodes[r.Name] = cols
	}
	return in, worst
}

// nodeOutput is the output of node name of ns's pipeline (waiting for it
// is noted in ns.waitsOn).
func (c *check) nodeOutput(ns *nodeState, name string) ([]Column, status) {
	up := c.nodes[ns.p.Node(name)]
	switch {
	case up == nil:
		return nil, unknown
	case !up.done:
		ns.waitsOn = up
		return nil, waiting
	case up.cols == nil:
		return nil, unknown
	}
	return up.cols, ready
}

// source is the schema a source gives its node.
func (c *check) source(ns *nodeState, src *workspace.Source) ([]Column, status) {
	switch {
	case src.Kind == workspace.SourceNode:
		return c.nodeOutput(ns, src.NodeName)
	case src.Kind == workspace.SourceTable:
		return c.table(src.Table, src.Pos)
	case src.Kind == workspace.SourceFile && strings.EqualFold(src.Format, "DELTA"):
		id := src.Table
		if id == "" {
			id = workspace.TableID(src.ResolvedPath)
		}
		return c.table(id, src.Pos)
	case src.Kind == workspace.SourceFile:
		return c.file(ns, src)
	case src.Kind == workspace.SourceDataFrame && src.Data != nil:
		return c.inline(ns, src)
	}
	return nil, unknown
}

// inline is a DATAFRAME source's schema, typed as its backend types the
// data; data Laktory fails on is an error (LK185), data local runs do not
// type yet a warning (LK182; runs refuse it, LK183).
func (c *check) inline(ns *nodeState, src *workspace.Source) ([]Column, status) {
	f, err := inline.Read(src.Data, src.Backend)
	switch {
	case errors.Is(err, inline.ErrFails):
		c.add(src.At("data"), validate.Error, validate.CodeInlineData,
			fmt.Sprintf("source #%d of node '%s': %s", src.Index+1, ns.n.Name, err), "give every value of a column one type")
		return nil, unknown
	case err != nil:
		c.add(src.At("data"), validate.Warning, validate.CodeLocalFormat,
			fmt.Sprintf("source #%d of node '%s': %s", src.Index+1, ns.n.Name, err), "write the data as integers, floats, strings and booleans, or read a file")
		return nil, unknown
	}
	return f.Columns, ready
}

// file infers a file source's schema, once per version of its files.
func (c *check) file(ns *nodeState, src *workspace.Source) ([]Column, status) {
	v, ok := c.versions[src]
	var err error
	if !ok {
		v, err = c.f.eng.FileVersion(src)
		if err == nil {
			c.versions[src] = v
		}
	}
	if err == nil && v == "" {
		return nil, unknown // nothing has landed yet
	}
	if err == nil {
		c.seenFiles[v] = true
		e, ok := c.f.files[v]
		if !ok {
			c.f.reads.Add(1)
			e.cols, e.err = c.f.eng.FileSchema(c.ctx, src)
			if c.ctx.Err() != nil {
				return nil, unknown
			}
			c.f.files[v] = e
			c.f.dirty = true
		}
		if err = e.err; err == nil {
			return e.cols, ready
		}
	}
	c.add(src.Pos, validate.Warning, validate.CodeSchemaUnknown,
		fmt.Sprintf("cannot read the schema of source #%d of node '%s' (%s): %s; the node's SQL is not checked", src.Index+1, ns.n.Name, src.Path, firstLine(err.Error())),
		"check that the path holds files of the source's format that the reader can parse")
	return nil, unknown
}

// table is the schema of a table read: the table's when it exists, else
// what its writers will write.
func (c *check) table(id workspace.TableID, at workspace.Pos) ([]Column, status) {
	e := c.onDisk(string(id))
	switch {
	case e.err != nil:
		c.add(at, validate.Warning, validate.CodeSchemaUnknown,
			fmt.Sprintf("cannot read the schema of table %s: %s; the node's SQL is not checked", id, firstLine(e.err.Error())),
			"check that the folder holds a readable Delta table")
		return nil, unknown
	case e.exists:
		return e.cols, ready
	}
	return c.written(c.snap.Table(id))
}

// written is the schema a table not written yet will have: its writers'
// columns, merged by name (each writer's new columns are added).
func (c *check) written(t *workspace.Table) ([]Column, status) {
	if t == nil || len(t.Writers) == 0 {
		return nil, unknown
	}
	var out []Column
	for _, w := range t.Writers {
		ns := c.nodes[c.snap.Node(w.Pipeline, w.Node)]
		switch {
		case ns == nil:
			return nil, unknown
		case !ns.done:
			return nil, waiting
		case ns.cols == nil:
			return nil, unknown
		}
		for _, col := range sinkColumns(w, ns.cols) {
			if !slices.ContainsFunc(out, func(o Column) bool { return strings.EqualFold(o.Name, col.Name) }) {
				out = append(out, col)
			}
		}
	}
	return out, ready
}

// sinkColumns are the columns a writer appends: its node's output, after
// the writer column of a writer-column shared sink (which replaces an
// output column of that name), as the runner writes them.
func sinkColumns(w *workspace.Writer, cols []Column) []Column {
	if w == nil || w.Ownership != workspace.OwnerColumn {
		return cols
	}
	out := []Column{{Name: w.Column, Type: "VARCHAR"}}
	for _, col := range cols {
		if !strings.EqualFold(col.Name, w.Column) {
			out = append(out, col)
		}
	}
	return out
}

// onDisk reads the schema of the Delta table at path, once per version.
func (c *check) onDisk(path string) *tableEntry {
	if e, ok := c.disk[path]; ok {
		return e
	}
	e := c.readDisk(path)
	c.disk[path] = e
	return e
}

func (c *check) readDisk(path string) *tableEntry {
	c.seenTables[path] = true
	t, err := delta.Open(c.ctx, path)
	if errors.Is(err, delta.ErrNotDeltaTable) {
		return &tableEntry{version: -1}
	}
	var v int64
	if err == nil {
		v, err = t.LatestVersion(c.ctx)
	}
	if err != nil {
		return &tableEntry{err: err}
	}
	stamp := commitStamp(path, v)
	if e, ok := c.f.tables[path]; ok && e.version == v && e.stamp == stamp && stamp != "" && e.err == nil {
		return e
	}
	c.f.reads.Add(1)
	e := &tableEntry{version: v, stamp: stamp, exists: true}
	s, err := t.Snapshot(c.ctx, delta.AtVersion(v))
	if err != nil {
		e.err = err
		return e
	}
	for _, fd := range s.Schema().Fields {
		typ, err := delta.DuckDBType(fd.Type)
		if err != nil {
			typ = fd.Type.TypeName()
		}
		e.cols = append(e.cols, Column{Name: fd.Name, Type: typ})
	}
	c.f.tables[path] = e
	c.f.dirty = true
	return e
}

// commitStamp identifies the commit file of version v of the table at
// path ("" when it cannot be read: the cache is then not used).
func commitStamp(path string, v int64) string {
	st, err := os.Stat(filepath.Join(path, "_delta_log", fmt.Sprintf("%020d.json", v)))
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d-%d", st.Size(), st.ModTime().UnixNano())
}

// forget drops the cache entries the check did not use (removed nodes,
// replaced file versions), so a long-lived flow stays bounded.
func (f *Flow) forget(c *check) {
	for v := range f.files {
		if !c.seenFiles[v] {
			delete(f.files, v)
			f.dirty = true
		}
	}
	for p := range f.tables {
		if !c.seenTables[p] {
			delete(f.tables, p)
			f.dirty = true
		}
	}
	ids := make(map[string]bool, len(c.order))
	for _, ns := range c.order {
		ids[ns.id] = true
	}
	for id := range f.nodes {
		if !ids[id] {
			delete(f.nodes, id)
			f.dirty = true
		}
	}
}

func (c *check) add(at workspace.Pos, sev workspace.Severity, code, msg, hint string) {
	c.diags = append(c.diags, workspace.NewDiagnostic(at, sev, code, msg, hint))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
