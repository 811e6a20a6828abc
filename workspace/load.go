package workspace

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Options control how a workspace loads.
type Options struct {
	// Env selects the stack environment (Laktory's --env); "" selects the
	// first environment declared, as Laktory does.
	Env string
	// Getenv reads environment variables: ${vars.x} falls back to them, and
	// LAKTORY_LAKE overrides the lake root. nil means no environment.
	Getenv func(string) string
	// Lake overrides the lake root (the --lake flag).
	Lake string
	// Params are the values of pipeline parameters for a run (--param
	// NAME=VALUE): ${params.NAME} takes them in every pipeline that
	// declares NAME, else the parameter's default.
	Params map[string]string
}

func (o Options) getenv(k string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(k)
}

// Snapshot is an immutable view of a workspace: its pipelines, the tables
// they write and read, and the problems found while loading. Nothing in a
// snapshot may be modified; Reload builds a new one.
type Snapshot struct {
	Dir    string
	Layout Layout
	// Config is the workbench config file (ConfigFileName), nil when the
	// workspace has none; its problems are among the Diagnostics.
	Config *Config
	// Env is the stack environment used ("" without a stack), Envs the
	// environments the stack declares.
	Env  string
	Envs []string
	// Files are the workspace's YAML files (absolute paths, sorted).
	Files []string
	// Pipelines are sorted by name.
	Pipelines []*Pipeline
	// Tables are sorted by ID; Writers and Readers follow pipeline and node
	// order.
	Tables  []*Table
	Writers []*Writer
	Readers []*Reader
	// WritePaths are the paths the pipelines may create, replace or delete,
	// judged against the allowed roots when the snapshot was built.
	WritePaths []WritePath
	// Ignored are the YAML files that are neither a pipeline, a stack nor
	// included by one (absolute, sorted): validate lists them.
	Ignored []string
	// Diagnostics are the load problems (package validate adds the rules').
	Diagnostics []Diagnostic
	// Generation counts the reloads since Load (0 for a fresh load).
	Generation uint64

	opts          Options
	configDiags   []Diagnostic
	cache         *rawCache
	results       map[string]*fileResult
	tableIndex    map[TableID]*Table
	pipelineIndex map[string]*Pipeline
}

// Pipeline returns the pipeline named name, or nil.
func (s *Snapshot) Pipeline(name string) *Pipeline { return s.pipelineIndex[name] }

// Table returns the table id, or nil.
func (s *Snapshot) Table(id TableID) *Table { return s.tableIndex[id] }

// Params returns the run's pipeline parameter values the snapshot was
// loaded with (Options.Params, --param NAME=VALUE), nil when none.
func (s *Snapshot) Params() map[string]string { return maps.Clone(s.opts.Params) }

// Node returns node name of pipeline pl, or nil.
func (s *Snapshot) Node(pl, name string) *Node {
	if p := s.Pipeline(pl); p != nil {
		return p.Node(name)
	}
	return nil
}

// Sink returns the sink a writer writes with.
func (s *Snapshot) Sink(w *Writer) *Sink {
	if n := s.Node(w.Pipeline, w.Node); n != nil {
		return n.SinkAt(w.Sink)
	}
	return nil
}

// Content returns the bytes of a workspace file as loaded (nil when the file
// was not read), e.g. to show the line of a diagnostic.
func (s *Snapshot) Content(file string) []byte {
	if f, ok := s.cache.peek(file); ok {
		return f.content
	}
	return nil
}

// Rel returns path relative to the workspace folder when it is inside it.
func (s *Snapshot) Rel(path string) string {
	if r, err := filepath.Rel(s.Dir, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

// Protected are the paths no removal may take or hold (see
// Layout.AllowedRoots): the state folder, the run history and the
// workspace's YAML files.
func (s *Snapshot) Protected() []string {
	out := append([]string{s.Layout.StateDir(), s.Layout.StateDB()}, s.Files...)
	if s.Config != nil {
		out = append(out, s.Config.File)
	}
	return out
}

// LoadsPipeline reports whether a pipeline of the snapshot was loaded from
// file or from a file including it: errors in a file for which it is false
// mean pipelines may be missing (a file that does not parse).
func (s *Snapshot) LoadsPipeline(file string) bool {
	for _, p := range s.Pipelines {
		if p.File == file || slices.Contains(s.Deps(p.File), file) {
			return true
		}
	}
	return false
}

// Deps returns the files and folders file includes (!use, !extend,
// !update), directly or not.
func (s *Snapshot) Deps(file string) []string {
	if r := s.results[file]; r != nil {
		return r.deps
	}
	return nil
}

func (c *rawCache) peek(path string) (*rawFile, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f, ok := c.files[path]
	return f, ok
}

type fileKind uint8

const (
	fileOther fileKind = iota
	filePipeline
	fileStack
)

// fileResult is what one workspace file yields; results are immutable and
// shared by the snapshots that follow until the file (or a file it
// includes) changes.
type fileResult struct {
	path      string
	kind      fileKind
	pipelines []*Pipeline
	diags     []Diagnostic
	deps      []string
	// notRead explains why a file that looks like a pipeline is not read
	// (reported unless another file includes it).
	notRead *Diagnostic
	envs    []string
	env     string
}

// loader holds what a load needs.
type loader struct {
	dir         string
	opts        Options
	layout      Layout
	config      *Config
	configDiags []Diagnostic
	cache       *rawCache
}

// Load reads every YAML file of the workspace in dir into a Snapshot. A
// broken file never fails the load: its problems become Diagnostics and the
// rest loads. Load fails only when dir is not a readable folder or ctx is
// done.
func Load(ctx context.Context, dir string, opts Options) (*Snapshot, error) {
	return load(ctx, dir, opts, 0)
}

func load(ctx context.Context, dir string, opts Options, gen uint64) (*Snapshot, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("load %s: %w", dir, ErrNotDir)
	}
	env := opts.getenv(LakeEnv)
	layout, err := NewLayout(dir, opts.Lake, env)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", dir, err)
	}
	cfg, cfgDiags := ReadConfig(layout.Dir)
	layout = layout.withConfig(cfg, opts.Lake == "" && env == "")
	l := &loader{dir: layout.Dir, opts: opts, layout: layout, config: cfg, configDiags: cfgDiags, cache: newRawCache()}
	files, err := discover(ctx, l.dir)
	if err != nil {
		return nil, err
	}
	files = slices.DeleteFunc(files, func(f string) bool { return !l.inWorkspace(f) })
	results, err := l.loadFiles(ctx, files)
	if err != nil {
		return nil, err
	}
	return l.assemble(results, gen), nil
}

// WithParams loads the workspace of prev again with the given values of
// pipeline parameters (a run's, as laktory run --param NAME=VALUE gives
// them) on top of prev's: every ${params.NAME} takes its value.
func WithParams(ctx context.Context, prev *Snapshot, params map[string]string) (*Snapshot, error) {
	if prev == nil {
		return nil, ErrNilSnapshot
	}
	opts := prev.opts
	opts.Params = maps.Clone(opts.Params)
	if opts.Params == nil {
		opts.Params = map[string]string{}
	}
	maps.Copy(opts.Params, params)
	return load(ctx, prev.Dir, opts, prev.Generation)
}

// Reload returns a new snapshot after the given paths changed (created,
// written, removed or renamed; files or folders). Only those files, and the
// files that include them, are parsed again.
func Reload(ctx context.Context, prev *Snapshot, changed []string) (*Snapshot, error) {
	if prev == nil {
		return nil, ErrNilSnapshot
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	changedSet := map[string]bool{}
	for _, p := range changed {
		if !filepath.IsAbs(p) {
			p = filepath.Join(prev.Dir, p)
		}
		changedSet[filepath.Clean(p)] = true
	}
	if changedSet[filepath.Join(prev.Dir, ConfigFileName)] || changedSet[prev.Dir] {
		// The config decides the lake and the roots: every file again.
		return load(ctx, prev.Dir, prev.opts, prev.Generation+1)
	}
	l := &loader{dir: prev.Dir, opts: prev.opts, layout: prev.Layout, config: prev.Config, configDiags: prev.configDiags,
		cache: prev.cache.clone(changedSet)}
	results := make(map[string]*fileResult, len(prev.results))
	for p, r := range prev.results {
		results[p] = r
	}
	// Files to parse again: the changed ones that are (still) workspace
	// files, files found in a changed folder, and the files including any of
	// them.
	redo := map[string]bool{}
	for p := range changedSet {
		st, err := os.Stat(p)
		switch {
		case err == nil && st.IsDir():
			for f := range results {
				if within(f, p) {
					redo[f] = true
				}
			}
			found, err := discover(ctx, p)
			if err != nil && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			for _, f := range found {
				if l.inWorkspace(f) {
					redo[f] = true
				}
			}
		case err == nil:
			if isYAML(p) && l.inWorkspace(p) {
				redo[p] = true
			}
		default: // removed: drop the file, or every file of a removed folder
			for f := range results {
				if f == p || within(f, p) {
					delete(results, f)
				}
			}
		}
	}
	for f, r := range results {
		if dependsOn(r.deps, changedSet) {
			redo[f] = true
		}
	}
	var paths []string
	for f := range redo {
		if _, err := os.Stat(f); err == nil {
			paths = append(paths, f)
		} else {
			delete(results, f)
		}
	}
	slices.Sort(paths)
	fresh, err := l.loadFiles(ctx, paths)
	if err != nil {
		return nil, err
	}
	for p, r := range fresh {
		results[p] = keepLastGood(r, prev.results[p])
	}
	return l.assemble(results, prev.Generation+1), nil
}

// within reports whether path is inside folder dir.
func within(path, dir string) bool {
	return strings.HasPrefix(path, dir+string(filepath.Separator))
}

func dependsOn(deps []string, changed map[string]bool) bool {
	for _, d := range deps {
		if changed[d] {
			return true
		}
		for c := range changed {
			if within(c, d) || within(d, c) {
				return true
			}
		}
	}
	return false
}

// inWorkspace reports whether p is a file the workspace loads: below the
// folder, outside hidden folders, not the workbench config file.
func (l *loader) inWorkspace(p string) bool {
	if p == filepath.Join(l.dir, ConfigFileName) {
		return false
	}
	r, err := filepath.Rel(l.dir, p)
	if err != nil || strings.HasPrefix(r, "..") {
		return false
	}
	for _, part := range strings.Split(filepath.Dir(r), string(filepath.Separator)) {
		if hidden(part) {
			return false
		}
	}
	return !hidden(filepath.Base(p))
}

func hidden(name string) bool { return len(name) > 1 && name[0] == '.' && name != ".." }

// discover lists the YAML files below dir, skipping hidden folders.
func discover(ctx context.Context, dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if err != nil {
			if p == dir {
				return err
			}
			return nil // unreadable subfolder: skip it
		}
		if d.IsDir() {
			if p != dir && hidden(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if isYAML(p) && !hidden(d.Name()) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", dir, err)
	}
	slices.Sort(files)
	return files, nil
}

// loadFiles parses files in parallel.
func (l *loader) loadFiles(ctx context.Context, files []string) (map[string]*fileResult, error) {
	out := make(map[string]*fileResult, len(files))
	var mu sync.Mutex
	work := make(chan string)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(1, len(files))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range work {
				r := l.loadFile(f)
				mu.Lock()
				out[f] = r
				mu.Unlock()
			}
		}()
	}
	var err error
	for _, f := range files {
		if err = ctx.Err(); err != nil {
			break
		}
		work <- f
	}
	close(work)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	return out, nil
}

// loadFile parses one workspace file. A bug in the loader becomes a
// diagnostic on the file instead of crashing the process.
func (l *loader) loadFile(path string) (res *fileResult) {
	defer func() {
		if r := recover(); r != nil {
			res = &fileResult{path: path, diags: []Diagnostic{NewDiagnostic(Pos{File: path, Line: 1, Col: 1}, SeverityError, CodeReadFile,
				fmt.Sprintf("internal error while loading this file: %v", r), "please report it with the file")}}
		}
	}()
	res = &fileResult{path: path}
	raw := l.cache.get(path)
	switch {
	case raw.err != nil:
		res.diags = append(res.diags, NewDiagnostic(Pos{File: path, Line: 1, Col: 1}, SeverityError, CodeReadFile,
			fmt.Sprintf("cannot read the file: %v", unwrapPathErr(raw.err)), "check the file's permissions"))
		return res
	case raw.syntax != nil:
		res.diags = append(res.diags, *raw.syntax)
		return res
	case raw.doc == nil:
		return res
	case raw.doc.Kind != yaml.MappingNode:
		res.notRead = notPipeline(path, raw.doc)
		return res
	}
	keys := topKeys(raw.doc)
	base := strings.ToLower(filepath.Base(path))
	switch {
	case (keys["resources"] && keys["name"]) || base == "stack.yaml" || base == "stack.yml":
		res.kind = fileStack
		l.loadStack(res, raw.doc)
	case keys["nodes"] || keys["orchestrator"]:
		res.kind = filePipeline
		e := l.expander(scalarVars(raw.doc.Content, "variables"))
		root := e.expandFile(path, Pos{File: path, Line: 1, Col: 1})
		res.diags = append(res.diags, e.diags...)
		res.deps = sortedKeys(e.deps)
		if root == nil {
			return res
		}
		d := newDecoder(l.layout, l.opts, nil)
		if p := d.pipeline(root, path, ""); p != nil {
			res.pipelines = append(res.pipelines, p)
		}
		res.diags = append(res.diags, d.diags...)
	default:
		res.notRead = notPipeline(path, raw.doc)
	}
	return res
}

// notPipeline explains why a YAML file that looks like a pipeline is not
// read as one: a `name` with a near-miss of `nodes`, or a list of nodes.
// Files that look like nothing of Laktory's give nil.
func notPipeline(path string, doc *yaml.Node) *Diagnostic {
	at := func(n *yaml.Node) Pos { return Pos{File: path, Line: n.Line, Col: n.Column} }
	switch doc.Kind {
	case yaml.SequenceNode:
		if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			return nil
		}
		item := topKeys(doc.Content[0])
		if !item["name"] || !(item["sources"] || item["source"] || item["sinks"] || item["transformer"]) {
			return nil
		}
		d := NewDiagnostic(at(doc.Content[0]), SeverityError, CodeNotRead,
			"this file is a list of nodes, not a pipeline: Laktory 0.13.1 cannot load a top-level list, and the workbench does not read it",
			"write `name: my-pipeline` and `nodes:` above the list (indent the list under `nodes:`), or include it from a pipeline with `nodes: !use this-file.yaml`")
		return &d
	case yaml.MappingNode:
		top := topKeys(doc)
		if !top["name"] {
			for i := 0; i+1 < len(doc.Content); i += 2 {
				if r := doc.Content[i+1]; doc.Content[i].Value == "resources" && r.Kind == yaml.MappingNode && topKeys(r)["pipelines"] {
					d := NewDiagnostic(at(doc.Content[i]), SeverityError, CodeNotRead,
						"Field required: `name`: Laktory 0.13.1 rejects a stack without a name, and the workbench does not read the pipelines of this file's resources",
						"add `name: my-stack` at the top, or include the file from a stack with `!use`")
					return &d
				}
			}
			return nil
		}
		for i := 0; i+1 < len(doc.Content); i += 2 {
			k := doc.Content[i]
			if k.Value != "nodes" && suggest(k.Value, []string{"nodes"}) == "nodes" {
				d := NewDiagnostic(at(k), SeverityError, CodeNotRead,
					fmt.Sprintf("Extra inputs are not permitted: `%s`; did you mean `nodes`? This file is not read as a pipeline", k.Value),
					"rename the key to `nodes:`")
				return &d
			}
		}
	}
	return nil
}

func (l *loader) expander(vars map[string]string) *expander {
	return &expander{cache: l.cache, deps: map[string]bool{}, vars: vars}
}

func topKeys(n *yaml.Node) map[string]bool {
	keys := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		keys[n.Content[i].Value] = true
	}
	return keys
}

// scalarVars reads the plain scalar variables of the mapping under key in a
// raw mapping's content (for include paths such as !use ${vars.env}.yaml).
func scalarVars(content []*yaml.Node, key string) map[string]string {
	vars := map[string]string{}
	for i := 0; i+1 < len(content); i += 2 {
		if content[i].Value != key || content[i+1].Kind != yaml.MappingNode {
			continue
		}
		m := content[i+1].Content
		for j := 0; j+1 < len(m); j += 2 {
			if m[j+1].Kind == yaml.ScalarNode {
				vars[strings.ToLower(m[j].Value)] = m[j+1].Value
			}
		}
	}
	return vars
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// assemble builds a snapshot from per-file results.
func (l *loader) assemble(results map[string]*fileResult, gen uint64) *Snapshot {
	s := &Snapshot{Dir: l.dir, Layout: l.layout, Config: l.config, Generation: gen, opts: l.opts, configDiags: l.configDiags,
		cache: l.cache, results: results, pipelineIndex: map[string]*Pipeline{}}
	s.Diagnostics = append(s.Diagnostics, l.configDiags...)
	// A file included by a pipeline or a stack is part of that file, not a
	// pipeline of its own.
	included := map[string]bool{}
	for _, r := range results {
		if r.kind != fileOther {
			for _, d := range r.deps {
				if d != r.path {
					included[d] = true
				}
			}
		}
	}
	paths := make([]string, 0, len(results))
	for p := range results {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	s.Files = paths
	for _, p := range paths {
		r := results[p]
		if included[p] && r.kind != fileOther {
			continue
		}
		s.Diagnostics = append(s.Diagnostics, r.diags...)
		if r.kind == fileOther && !included[p] && len(r.diags) == 0 {
			s.Ignored = append(s.Ignored, p)
			if r.notRead != nil {
				s.Diagnostics = append(s.Diagnostics, *r.notRead)
			}
		}
		if r.kind == fileStack && s.Envs == nil {
			s.Envs, s.Env = r.envs, r.env
		}
		for _, pl := range r.pipelines {
			if prev, dup := s.pipelineIndex[pl.Name]; dup && pl.Name != "" {
				s.Diagnostics = append(s.Diagnostics, NewDiagnostic(pl.At("name"), SeverityError, CodeDuplicatePipe,
					fmt.Sprintf("pipeline '%s' is also declared in %s: this one is ignored", pl.Name, s.Rel(prev.File)),
					"give each pipeline a unique name"))
				continue
			}
			s.pipelineIndex[pl.Name] = pl
			s.Pipelines = append(s.Pipelines, pl)
		}
	}
	slices.SortStableFunc(s.Pipelines, func(a, b *Pipeline) int { return strings.Compare(a.Name, b.Name) })
	s.Diagnostics = SortDiagnostics(s.Diagnostics)
	s.assembleGraph()
	s.WritePaths = s.writePaths()
	return s
}

// keepLastGood keeps the pipelines of a file's last good content when its
// new content (or a file it includes) has a YAML syntax error: the
// pipelines stay in the tree and the graph, marked Stale, beside the
// syntax error that blocks their runs.
func keepLastGood(r, prev *fileResult) *fileResult {
	if prev == nil || len(prev.pipelines) == 0 || len(r.pipelines) > 0 ||
		!slices.ContainsFunc(r.diags, func(d Diagnostic) bool { return d.Code == CodeYAMLSyntax }) {
		return r
	}
	kept := *r
	kept.kind, kept.deps, kept.envs, kept.env = prev.kind, prev.deps, prev.envs, prev.env
	kept.pipelines = make([]*Pipeline, len(prev.pipelines))
	for i, p := range prev.pipelines {
		stale := *p
		stale.Stale = true
		kept.pipelines[i] = &stale
	}
	return &kept
}
