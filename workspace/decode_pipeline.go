package workspace

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Allowed values and keys come from Laktory's schema (laktoryschema.go);
// the rest are our extensions and what the schema cannot say.
var (
	sourceModels = []string{"FileDataSource", "UnityCatalogDataSource", "HiveMetastoreDataSource",
		"PipelineNodeDataSource", "DataFrameDataSource", "CustomDataSource"}
	sinkModels         = []string{"FileDataSink", "UnityCatalogDataSink", "HiveMetastoreDataSink", "PipelineViewDataSink"}
	orchestratorModels = map[string]string{
		OrchestratorLakeflowJob:         "LakeflowJobOrchestrator",
		OrchestratorLakeflowDeclarative: "LakeflowDeclarativePipelineOrchestrator",
		OrchestratorSparkDeclarative:    "SparkDeclarativePipelineOrchestrator",
		OrchestratorAirflow:             "AirflowOrchestrator",
	}
	orchestratorTypes = enumOf("type", "LakeflowJobOrchestrator", "LakeflowDeclarativePipelineOrchestrator",
		"SparkDeclarativePipelineOrchestrator", "AirflowOrchestrator")
	renamedOrchestrators = map[string]string{
		"DATABRICKS_PIPELINE": OrchestratorLakeflowDeclarative,
		"DATABRICKS_JOB":      OrchestratorLakeflowJob,
	}
	backends      = enumOf("dataframe_backend", "Pipeline")
	dataframeAPIs = enumOf("dataframe_api", "Pipeline")
	resetModes    = enumOf("reset_mode", "FileDataSink")
	sinkModes     = enumOf("mode", sinkModels...)
	tableFormats  = enumOf("format", "UnityCatalogDataSink", "HiveMetastoreDataSink")
	tableTypes    = enumOf("table_type", "UnityCatalogDataSink", "HiveMetastoreDataSink")
	sourceTypes   = enumOf("type", sourceModels...)
	sinkTypes     = enumOf("type", sinkModels...)
	actions       = enumOf("action", "DataQualityExpectation")
	expectTypes   = enumOf("type", "DataQualityExpectation")
	stepTypes     = enumOf("type", "DataFrameExpr")
	// File formats are checked in Laktory's code (FORMAT_CAPABILITIES), not
	// in its schema.
	sparkFormats  = []string{"AVRO", "BINARYFILE", "CSV", "DELTA", "EXCEL", "JSON", "JSONL", "NDJSON", "ORC", "PARQUET", "TEXT", "XML"}
	polarsFormats = []string{"AVRO", "CSV", "DELTA", "EXCEL", "IPC", "JSON", "JSONL", "NDJSON", "PARQUET", "PYARROW"}
	flowKinds     = []string{FlowAppend, FlowUpdate}
	httpMethods   = []string{"PUT", "POST", "PATCH", "DELETE"}
)

// Keys of each object. `source` is Laktory's legacy key (migrated to
// `sources` before validation) and `flow` our extension.
var (
	pipelineKeys   = keysOf("Pipeline")
	nodeKeys       = append(keysOf("PipelineNode"), "source", ExtensionFlow)
	sourceKindKeys = map[SourceKind][]string{
		SourceFile:      keysOf("FileDataSource"),
		SourceTable:     keysOf("UnityCatalogDataSource", "HiveMetastoreDataSource"),
		SourceNode:      keysOf("PipelineNodeDataSource"),
		SourceDataFrame: keysOf("DataFrameDataSource"),
		SourceCustom:    keysOf("CustomDataSource"),
	}
	allSourceKeys = keysOf(sourceModels...)
	sinkKindKeys  = map[SinkKind][]string{
		SinkFile:         keysOf("FileDataSink"),
		SinkTable:        keysOf("UnityCatalogDataSink", "HiveMetastoreDataSink"),
		SinkPipelineView: keysOf("PipelineViewDataSink"),
	}
	allSinkKeys     = keysOf(sinkModels...)
	forEachSinkKeys = []string{ExtensionForEach, "variables", "is_quarantine", "checkpoint_path"}
	sharedKeys      = keysOf("DataSinkSharedOptions")
	stepExprKeys    = keysOf("DataFrameExpr")
	stepFuncKeys    = keysOf("DataFrameMethod")
	transformerKeys = keysOf("DataFrameTransformer")
	funcKeys        = keysOf("CustomReader", "CustomWriter")
	expectationKeys = keysOf("DataQualityExpectation")
	columnExprKeys  = keysOf("DataFrameColumnExpr")
	toleranceKeys   = keysOf("ExpectationTolerance")
	schemaKeys      = keysOf("DataFrameSchema")
	columnKeys      = keysOf("DataFrameColumn")
	methodKeys      = keysOf("ReaderWriterMethod")
	metadataKeys    = keysOf("TableDataSinkMetadata")
	parameterKeys   = keysOf("PipelineParameter")
	flowKeys        = []string{"name", "once", "import_checkpoint", "comment", "spark_conf", "kind"}
	forEachKeys     = []string{"name", "command", "http"}
	httpKeys        = []string{"method", "url", "headers", "timeout"}
)

// Extension keys: our own, which Laktory rejects.
const (
	ExtensionFlow    = "flow"
	ExtensionForEach = "foreach"
)

// pctx is what a pipeline's children need to know about it.
type pctx struct {
	file     string // the pipeline's declaring file
	pipeline string
	node     string
	backend  string // effective dataframe backend
	api      string
	conf     map[string]string // the pipeline's Spark configuration
}

// withScope decodes with the object's own variables in scope.
func (d *decoder) withScope(n *vnode, f func()) {
	saved := d.scope
	if vars := n.get("variables"); vars != nil {
		if vars.kind == vMap {
			d.scope = d.scope.push(vars)
		} else if !vars.isNull() {
			d.errorf(vars.pos(), CodeWrongType, "write `variables:` as a mapping of `name: value`", "`variables` must be a mapping, got %s", vars.kindName())
		}
	}
	f()
	d.scope = saved
}

func (d *decoder) pipeline(n *vnode, file, stackKey string) *Pipeline {
	o := d.object(n, "pipeline")
	if o == nil {
		return nil
	}
	p := &Pipeline{File: file, StackKey: stackKey}
	var conf map[string]string
	d.withScope(o.n, func() {
		p.Name = o.required("name")
		if p.Name != "" {
			o.what = fmt.Sprintf("pipeline '%s'", p.Name)
		}
		o.check(pipelineKeys)
		p.Located = o.loc
		if on := o.raw("orchestrator"); !on.isNull() {
			if oo := d.object(on, "orchestrator"); oo != nil {
				t := oo.str("type")
				if nw, ok := renamedOrchestrators[t]; ok {
					d.errorf(oo.loc.At("type"), CodeRenamed, "type: "+nw,
						"Orchestrator type '%s' was renamed in Laktory 0.12. Update your pipeline YAML: type: %s", t, nw)
					t = nw
				} else if t != "" && !slices.Contains(orchestratorTypes, t) && !strings.Contains(t, "${") {
					oo.badEnum("type", t, orchestratorTypes, SeverityError)
				}
				p.Orchestrator = t
				d.orchestrator(oo, t)
				conf = d.orchestratorSparkConf(oo.n, t)
			}
		}
		p.DataframeBackend = o.enumAny(backends, "dataframe_backend", "dataframe_backend_")
		p.DataframeAPI = o.enumAny(dataframeAPIs, "dataframe_api", "dataframe_api_")
		p.RootPath = o.strAny("root_path", "root_path_")
		o.strList("dependencies")
		o.strList("imports")
		if v := o.n.get("variables"); v != nil && v.kind == vMap {
			p.Variables, _ = d.toAny(v).(map[string]any)
		}
		d.parameters(o, p)
		defer func() { d.params = nil }()
		pc := pctx{file: file, pipeline: p.Name, backend: p.DataframeBackend, api: p.DataframeAPI, conf: conf}
		for i, it := range o.list("nodes") {
			if nd := d.node(it, i, pc); nd != nil {
				p.Nodes = append(p.Nodes, nd)
			}
		}
		p.DAG = buildDAG(p)
	})
	return p
}

// reservedParameters are the names Laktory 0.13.1 keeps for its job task
// entry point.
var reservedParameters = []string{"filepath", "selects", "refresh", "reset_mode", "full_refresh"}

var paramRe = regexp.MustCompile(`\$\{params\.([a-zA-Z_][a-zA-Z0-9_]*)\}`)

// parameters decodes the pipeline's `parameters`, sets the values
// ${params.x} takes while its nodes decode, and checks them as Laktory
// 0.13.1's validate_parameters does (LK020).
func (d *decoder) parameters(o *obj, p *Pipeline) {
	bad := func(at Pos, msg, hint string) { d.add(at, SeverityError, CodeParameter, msg, hint) }
	d.params = map[string]string{}
	if pn := o.raw("parameters"); !pn.isNull() {
		po := d.object(pn, "`parameters`")
		if po == nil {
			return
		}
		vals := map[string]string{}
		for i, k := range po.n.keys {
			prm := &Parameter{Name: k.value, Located: Located{Pos: k.pos(), Fields: map[string]Pos{}}}
			if v := po.n.vals[i]; !v.isNull() {
				if vo := d.object(v, fmt.Sprintf("parameter '%s'", k.value)); vo != nil {
					vo.check(parameterKeys)
					prm.Fields = vo.loc.Fields
					if dv := vo.raw("default"); !dv.isNull() {
						s := vo.str("default")
						prm.Default = &s
					}
				}
			}
			if slices.Contains(reservedParameters, k.value) {
				bad(k.pos(), fmt.Sprintf("Parameter name '%s' is reserved. Reserved names are %s.", k.value, PyList(reservedParameters)),
					"rename the parameter")
			}
			v, given := d.runParams[k.value]
			switch {
			case given && v == "":
				// Laktory would run with the default instead: an empty
				// value is refused rather than silently replaced.
				def := "none: the run is refused as Laktory refuses a required parameter left unset"
				if prm.Default != nil && *prm.Default != "" {
					def = fmt.Sprintf("%q", *prm.Default)
				}
				bad(k.pos(), fmt.Sprintf("--param %s= gives parameter '%s' an empty value, which Laktory 0.13.1 replaces with its default (%s)", k.value, k.value, def),
					fmt.Sprintf("give a value (--param %s=VALUE), or leave --param %s out to use the default", k.value, k.value))
				// The refusal is the one diagnostic: the nodes decode with
				// the value Laktory would use (the default), so no step
				// fails later on a ${params.x} left in its text, and the
				// parameter is not reported again as required.
				prm.EmptyRefused = true
				if prm.Default != nil && *prm.Default != "" {
					prm.Value, prm.Set = *prm.Default, true
				}
			case given:
				prm.Value, prm.Set = v, true
			case prm.Default != nil && *prm.Default != "":
				prm.Value, prm.Set = *prm.Default, true
			}
			if prm.Set && strings.Contains(prm.Value, "${params.") {
				// Laktory substitutes a parameter's value as it is, once
				// per reference: a value naming a parameter would be
				// substituted a varying number of times (or grow without
				// bound when it names itself).
				bad(k.pos(), fmt.Sprintf("the value of parameter '%s' refers to a parameter (%s): parameter values are literal text", k.value, paramRe.FindString(prm.Value)),
					"write the value out in full")
			} else if prm.Set {
				vals[k.value] = prm.Value
			}
			p.Parameters = append(p.Parameters, prm)
		}
		// The defaults decode without parameters (a default naming one
		// is refused above); the nodes with the values.
		d.params = vals
	}
	declared := map[string]bool{}
	for _, prm := range p.Parameters {
		declared[prm.Name] = true
	}
	if len(p.Parameters) > 0 && p.Declarative() {
		bad(o.loc.At("parameters"), fmt.Sprintf("`parameters` are not supported with %s: the tables of a declarative pipeline are defined at deployment. Use `variables` instead and deploy one pipeline per value.",
			orchestratorModels[p.Orchestrator]), "remove `parameters`, or use a LAKEFLOW_JOB orchestrator")
	}
	if len(p.Parameters) == 0 {
		// Laktory 0.13.1's validate_parameters checks nothing more for a
		// pipeline without parameters, and its run substitutes none.
		d.paramsAsText(o, p)
		return
	}
	var outside, undeclared []string
	var outsideAt, undeclaredAt Pos
	for i, k := range o.n.keys {
		switch k.value {
		case "parameters", "variables", "root_path", "root_path_":
		case "nodes":
			walkStrings(o.n.vals[i], func(s string, at Pos) {
				for _, m := range paramRe.FindAllStringSubmatch(s, -1) {
					if !declared[m[1]] && !slices.Contains(undeclared, m[1]) {
						undeclared = append(undeclared, m[1])
						if undeclaredAt.IsZero() {
							undeclaredAt = at
						}
					}
				}
			})
			for _, it := range o.n.vals[i].valsOf() {
				if nm := it.get("name"); nm != nil && paramRe.MatchString(nm.value) {
					bad(nm.pos(), fmt.Sprintf("Nodes ['%s'] of pipeline '%s' use parameters in their name. Node names identify nodes before parameters are resolved: use parameters in sources, sinks and transformers instead.", nm.value, p.Name),
						"give the node a fixed name")
				}
			}
		default:
			walkStrings(o.n.vals[i], func(s string, at Pos) {
				for _, m := range paramRe.FindAllStringSubmatch(s, -1) {
					if !slices.Contains(outside, m[1]) {
						outside = append(outside, m[1])
						if outsideAt.IsZero() {
							outsideAt = at
						}
					}
				}
			})
		}
	}
	if len(outside) > 0 {
		slices.Sort(outside)
		bad(outsideAt, fmt.Sprintf("Parameters %s of pipeline '%s' are used outside of the pipeline nodes. Parameters are resolved at run time and can only be used in `nodes`.", PyList(outside), p.Name),
			"use a ${vars.x} variable here")
	}
	if len(undeclared) > 0 {
		slices.Sort(undeclared)
		bad(undeclaredAt, fmt.Sprintf("Parameters %s of pipeline '%s' are not declared in `parameters`.", PyList(undeclared), p.Name),
			fmt.Sprintf("declare it: `parameters: {%s: {default: ...}}` (no default makes it required)", undeclared[0]))
	}
}

// paramsAsText warns about each value of a pipeline without `parameters`
// that holds ${params.x}: Laktory leaves the text as written (a path
// names a folder `${params.x}`, a filter compares with that text).
func (d *decoder) paramsAsText(o *obj, p *Pipeline) {
	walkStrings(o.n, func(s string, at Pos) {
		var names []string
		for _, m := range paramRe.FindAllStringSubmatch(s, -1) {
			if !slices.Contains(names, m[0]) {
				names = append(names, m[0])
			}
		}
		if len(names) == 0 {
			return
		}
		d.add(at, SeverityWarning, CodeParamAsText,
			fmt.Sprintf("%s: pipeline '%s' declares no `parameters`, so Laktory %s leaves the text as written (%q)", strings.Join(names, ", "), p.Name, LaktoryVersion, s),
			fmt.Sprintf("declare it: `parameters: {%s: {default: ...}}` to have it substituted, or write the value", paramRe.FindStringSubmatch(names[0])[1]))
	})
}

// walkStrings calls f with every scalar below n.
func walkStrings(n *vnode, f func(string, Pos)) {
	if n == nil {
		return
	}
	if n.kind == vScalar {
		f(n.value, n.pos())
	}
	for _, k := range n.keys {
		f(k.value, k.pos())
	}
	for _, v := range n.vals {
		walkStrings(v, f)
	}
}

// PyList writes names as Laktory's messages do (a Python list), for
// messages that quote Laktory.
func PyList(names []string) string {
	if len(names) == 0 {
		return "[]"
	}
	return "['" + strings.Join(names, "', '") + "']"
}

// orchestrator checks an orchestrator's keys against its type's model and
// what Laktory 0.13.1 validates when it builds it. Local runs do not read
// these settings: Laktory's rejections are warnings (LK017), errors with
// --strict.
func (d *decoder) orchestrator(o *obj, typ string) {
	model, ok := orchestratorModels[typ]
	if !ok {
		return
	}
	allowed := keysOf(model)
	for _, k := range o.n.keys {
		if slices.Contains(allowed, k.value) {
			continue
		}
		msg := fmt.Sprintf("Extra inputs are not permitted: Laktory %s rejects the key `%s` in a %s orchestrator", LaktoryVersion, k.value, typ)
		if s := suggest(k.value, allowed); s != "" {
			msg += fmt.Sprintf("; did you mean `%s`?", s)
		}
		d.add(k.pos(), SeverityWarning, CodeLaktoryRejects, msg, "allowed keys: "+strings.Join(visibleKeys(allowed), ", "))
	}
	if typ != OrchestratorLakeflowJob {
		return
	}
	// LakeflowJobOrchestrator.update_from_parent: a job cluster named
	// node-cluster, else serverless with an environment version.
	hasKey := func(list, key, want string) (found, any bool) {
		for _, it := range o.d.resolve(o.n.get(list)).valsOf() {
			any = true
			if v := it.get(key); v != nil && v.value == want {
				found = true
			}
		}
		return found, any
	}
	nodeCluster, clusters := hasKey("job_clusters", "job_cluster_key", "node-cluster")
	if c, a := hasKey("job_cluster", "job_cluster_key", "node-cluster"); c || a {
		nodeCluster, clusters = nodeCluster || c, true
	}
	if clusters && !nodeCluster {
		d.add(o.loc.Pos, SeverityWarning, CodeLaktoryRejects,
			"To use LAKEFLOW_JOB orchestrator, a cluster named `node-cluster` must be defined in the databricks_job attribute.",
			"name the job cluster the pipeline's nodes run on `job_cluster_key: node-cluster`")
		return
	}
	env, _ := hasKey("environments", "environment_key", "laktory")
	if e, _ := hasKey("environment", "environment_key", "laktory"); e {
		env = true
	}
	if !nodeCluster && !env && (!o.has("serverless_environment_version") || o.raw("serverless_environment_version").isNull()) {
		d.add(o.loc.Pos, SeverityWarning, CodeLaktoryRejects,
			"To use serverless a `serverless_environment_version` must be specified.",
			"add `serverless_environment_version: \"4\"` to the orchestrator, or a job cluster named `node-cluster`")
	}
}

// extension warns that Laktory rejects one of our extension keys (LK018,
// an error with --strict), and says how it runs beyond the laptop.
func (d *decoder) extension(at Pos, key string) {
	beyond := "OSS Spark Declarative Pipelines cannot express `once` or `import_checkpoint`"
	if key == ExtensionForEach {
		beyond = "Laktory has no YAML for ForEach sinks"
	}
	d.add(at, SeverityWarning, CodeExtension,
		fmt.Sprintf("workbench extension: Laktory %s rejects `%s`; it runs here and on the workbench's Spark engine", LaktoryVersion, key),
		beyond+"; --strict makes this an error")
}

// enumAny reads an enum field that has pydantic aliases.
func (o *obj) enumAny(allowed []string, keys ...string) string {
	for _, k := range keys {
		if o.has(k) {
			return o.enum(k, allowed)
		}
	}
	return ""
}

func (d *decoder) node(n *vnode, i int, pc pctx) *Node {
	o := d.object(n, fmt.Sprintf("node #%d", i+1))
	if o == nil {
		return nil
	}
	nd := &Node{Pipeline: pc.pipeline}
	d.withScope(o.n, func() {
		nd.Name = o.required("name")
		if nd.Name != "" {
			o.what = fmt.Sprintf("node '%s'", nd.Name)
		}
		nd.Located = o.loc
		if o.has("dlt_template") {
			d.errorf(o.n.keyPos("dlt_template"), CodeRenamed, "rename the key to ldp_template",
				"'dlt_template' was renamed to 'ldp_template' in v0.12. Please update your YAML.")
			o.n = o.n.without("dlt_template")
		}
		o.check(nodeKeys)
		pc.node = nd.Name
		if b := o.enumAny(backends, "dataframe_backend", "dataframe_backend_"); b != "" {
			pc.backend = b
		}
		if a := o.enumAny(dataframeAPIs, "dataframe_api", "dataframe_api_"); a != "" {
			pc.api = a
		}
		nd.DataframeBackend, nd.DataframeAPI = pc.backend, pc.api

		switch {
		case o.has("source") && o.has("sources"):
			d.errorf(o.n.keyPos("source"), CodeConflictingKeys, "move the source into the `sources:` list",
				"node '%s' sets both `source` (legacy) and `sources`", nd.Name)
			fallthrough
		case o.has("sources"):
			for j, it := range o.list("sources") {
				if s := d.source(it, j, pc); s != nil {
					nd.Sources = append(nd.Sources, s)
				}
			}
		case o.has("source"):
			if v := o.raw("source"); !v.isNull() {
				if s := d.source(v, 0, pc); s != nil {
					nd.Sources = append(nd.Sources, s)
				}
			}
		}
		if t := o.raw("transformer"); !t.isNull() {
			nd.Transformer = d.transformer(t, pc)
		}
		for j, it := range o.list("sinks") {
			if s := d.sink(it, j, pc); s != nil {
				nd.Sinks = append(nd.Sinks, s)
			}
		}
		for j, it := range o.list("expectations") {
			if e := d.expectation(it, j); e != nil {
				nd.Expectations = append(nd.Expectations, e)
			}
		}
		nd.DependsOn = o.strList("depends_on")
		nd.Tags = o.strList("tags")
		nd.PrimaryKeys = o.strList("primary_keys")
		nd.Comment = o.str("comment")
		nd.ExecutionTaskName = o.strAny("execution_task_name", "execution_task_name_")
		o.str("ldp_template")
		o.str("time_column")
		o.strAny("expectations_checkpoint_path", "expectations_checkpoint_path_")
		o.strAny("root_path", "root_path_")
		if f := o.raw(ExtensionFlow); !f.isNull() {
			d.extension(o.n.keyPos(ExtensionFlow), ExtensionFlow)
			nd.Flow = d.flow(f)
		}
		nd.SparkConf = pc.conf
		if nd.Flow != nil && len(nd.Flow.SparkConf) > 0 {
			nd.SparkConf = map[string]string{}
			for k, v := range pc.conf {
				nd.SparkConf[k] = v
			}
			for k, v := range nd.Flow.SparkConf {
				nd.SparkConf[k] = v
			}
		}
		nd.NodeRefs, nd.SourceRefs = d.refs(nd.Transformer)
	})
	return nd
}

// orchestratorSparkConf reads the Spark configuration the pipeline's nodes
// run with: the spark_conf of LAKEFLOW_JOB's job cluster node-cluster, or
// a declarative pipeline's configuration (nil without one). The keys are
// not validated here (the orchestrator's checks do).
func (d *decoder) orchestratorSparkConf(o *vnode, typ string) map[string]string {
	var m *vnode
	switch typ {
	case OrchestratorLakeflowJob:
		for _, c := range d.resolve(o.get("job_clusters")).valsOf() {
			c = d.resolve(c)
			if k := d.resolve(c.get("job_cluster_key")); k != nil && k.value == "node-cluster" {
				m = d.resolve(d.resolve(c.get("new_cluster")).get("spark_conf"))
			}
		}
	case OrchestratorLakeflowDeclarative, OrchestratorSparkDeclarative:
		m = d.resolve(o.get("configuration"))
	}
	if m == nil || m.kind != vMap {
		return nil
	}
	out := map[string]string{}
	for i, k := range m.keys {
		if v := d.resolve(m.vals[i]); v != nil && v.kind == vScalar {
			out[k.value] = v.value
		}
	}
	return out
}

func (n *vnode) keyPos(key string) Pos {
	for _, k := range n.keys {
		if k.value == key {
			return k.pos()
		}
	}
	return n.pos()
}

// without returns a copy of mapping n without key.
func (n *vnode) without(key string) *vnode {
	c := *n
	c.keys, c.vals = nil, nil
	for i, k := range n.keys {
		if k.value != key {
			c.keys = append(c.keys, k)
			c.vals = append(c.vals, n.vals[i])
		}
	}
	return &c
}

// kindOf infers an object's kind from marker keys; it reports a missing or
// ambiguous marker.
func kindOf[K ~string](o *obj, markers []string, kinds []K, explicit K, what, need string) (K, bool) {
	if explicit != "" {
		return explicit, false
	}
	var kind K
	var found []string
	var distinct []K
	for i, m := range markers {
		if !o.has(m) {
			continue
		}
		if kind == "" {
			kind = kinds[i]
		}
		found = append(found, m)
		if !slices.Contains(distinct, kinds[i]) {
			distinct = append(distinct, kinds[i])
		}
	}
	switch {
	case len(found) == 0:
		o.d.errorf(o.loc.Pos, CodeMissingField, need, "%s has no type: it sets none of %s", what, strings.Join(quoteAll(markers), ", "))
	case len(distinct) > 1:
		o.d.errorf(o.loc.Pos, CodeAmbiguousKind, "keep one of them: "+need,
			"%s sets %s: it can only be one kind", what, strings.Join(quoteAll(found), " and "))
	}
	return kind, len(distinct) > 1
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = "`" + x + "`"
	}
	return out
}

func (d *decoder) source(n *vnode, i int, pc pctx) *Source {
	o := d.object(n, fmt.Sprintf("source #%d of node '%s'", i+1, pc.node))
	if o == nil {
		return nil
	}
	s := &Source{Index: i}
	d.withScope(o.n, func() {
		s.Located = o.loc
		s.Type = o.enum("type", sourceTypes)
		explicit := map[string]SourceKind{"FILE": SourceFile, "UNITY_CATALOG": SourceTable, "HIVE_METASTORE": SourceTable,
			"PIPELINE_NODE": SourceNode, "DATAFRAME": SourceDataFrame, "CUSTOM": SourceCustom}[s.Type]
		var ambiguous bool
		s.Kind, ambiguous = kindOf(o, []string{"path", "table_name", "node_name", "df", "data", "custom_reader"},
			[]SourceKind{SourceFile, SourceTable, SourceNode, SourceDataFrame, SourceDataFrame, SourceCustom}, explicit,
			o.what, "a source reads `path` + `format`, a `table_name` or a `node_name`")
		if s.Kind == "" || ambiguous {
			o.check(allSourceKeys)
		} else {
			o.check(sourceKindKeys[s.Kind])
		}
		backend := pc.backend
		own := o.enumAny(backends, "dataframe_backend", "dataframe_backend_")
		if own != "" {
			backend = own
		}
		o.enumAny(dataframeAPIs, "dataframe_api", "dataframe_api_")
		s.Backend = backend
		s.Name = o.str("name")
		s.AsStream = o.boolean("as_stream")
		if s.AsStream && backend == "POLARS" {
			d.errorf(o.loc.At("as_stream"), CodeUnsupportedValue, "remove `as_stream` or use the PYSPARK backend",
				"Streaming read is not supported with Polars Backend.")
		}
		s.Filter = o.str("filter")
		s.Drops = o.strList("drops")
		s.Renames = o.renames("renames")
		if v := o.raw("selects"); !v.isNull() {
			if v.kind == vMap {
				s.Selects = o.renames("selects")
			} else {
				for _, c := range o.strList("selects") {
					s.Selects = append(s.Selects, Rename{From: c, To: c})
				}
			}
		}
		if v := o.raw("drop_duplicates"); !v.isNull() {
			if v.kind == vSeq {
				s.DropDuplicatesOn = o.strList("drop_duplicates")
				s.DropDuplicates = true
			} else {
				s.DropDuplicates = o.boolean("drop_duplicates")
			}
		}
		if s.Kind == SourceFile || s.Kind == SourceTable || s.Kind == SourceNode {
			s.ReaderKwargs = o.anyMap("reader_kwargs")
			s.ReaderMethods = d.methods(o, "reader_methods")
		}
		switch s.Kind {
		case SourceFile:
			s.Path = o.required("path")
			s.ResolvedPath = d.resolveDeclared(pc.file, s.Path)
			d.sourceFormat(o, s, own)
			if s.Format == "DELTA" && s.ResolvedPath != "" {
				s.Table = TableID(s.ResolvedPath)
			}
			if v, ok := o.optBool("has_header"); ok {
				s.HasHeader = &v
			}
			if v, ok := o.optBool("infer_schema"); ok {
				s.InferSchema = &v
			}
			s.Schema = d.schema(o, "schema", "schema_definition")
			o.strAny("schema_location", "schema_location_")
		case SourceTable:
			s.TableName = o.required("table_name")
			s.CatalogName, s.SchemaName = o.str("catalog_name"), o.str("schema_name")
			s.TableRef, s.Table = d.tableRef(o, s.TableName, s.CatalogName, s.SchemaName)
		case SourceNode:
			s.NodeName = o.required("node_name")
		case SourceDataFrame:
			s.Data = d.inlineData(o)
			if s.Data == nil && !o.has("df") {
				d.errorf(o.loc.Pos, CodeMissingField, "write the rows under `data`", "Either `data` or `df` must be provided.")
			}
			if s.Data != nil && o.has("df") {
				d.errorf(o.loc.At("df"), CodeConflictingKeys, "remove `df` (a Python object) or `data`", "Only `data` or `df` can be provided.")
			}
		case SourceCustom:
			if cr := o.raw("custom_reader"); cr != nil && cr.kind == vMap {
				if co := d.object(cr, "custom_reader"); co != nil {
					co.check(funcKeys)
					co.required("func_name")
				}
			}
		}
	})
	return s
}

// resolveDeclared resolves a path written in file, unless it still holds an
// unresolved variable.
// A remote path (IsRemotePath) is mapped to its local folder by the
// workbench config's `paths:`, and kept as written when none maps it.
func (d *decoder) resolveDeclared(file, p string) string {
	if p == "" || strings.Contains(p, "${") {
		return ""
	}
	if IsRemotePath(p) {
		if local, ok := MapPath(d.layout.Paths, p); ok {
			return strings.TrimRight(local, `/\`)
		}
		return strings.TrimRight(p, `/\`)
	}
	return strings.TrimRight(ResolvePath(file, p), `/\`)
}

func (d *decoder) sink(n *vnode, i int, pc pctx) *Sink {
	o := d.object(n, fmt.Sprintf("sink #%d of node '%s'", i+1, pc.node))
	if o == nil {
		return nil
	}
	s := &Sink{Index: i}
	d.withScope(o.n, func() {
		s.Located = o.loc
		if o.has(ExtensionForEach) {
			d.extension(o.n.keyPos(ExtensionForEach), ExtensionForEach)
			s.Kind = SinkForEach
			o.check(forEachSinkKeys)
			s.IsQuarantine = o.boolean("is_quarantine")
			s.CheckpointPath = o.str("checkpoint_path")
			s.ForEach = d.forEach(o.raw("foreach"), o.loc.At("foreach"))
			return
		}
		s.Type = o.enum("type", sinkTypes)
		explicit := map[string]SinkKind{"FILE": SinkFile, "UNITY_CATALOG": SinkTable, "HIVE_METASTORE": SinkTable,
			"PIPELINE_VIEW": SinkPipelineView}[s.Type]
		var ambiguous bool
		s.Kind, ambiguous = kindOf(o, []string{"path", "table_name", "pipeline_view_name"}, []SinkKind{SinkFile, SinkTable, SinkPipelineView},
			explicit, o.what, "a sink writes `path` + `format`, a `table_name`, a `pipeline_view_name` or a `foreach`")
		if s.Kind == "" || ambiguous {
			o.check(allSinkKeys, []string{ExtensionForEach})
		} else {
			o.check(sinkKindKeys[s.Kind])
		}
		backend := pc.backend
		if b := o.enumAny(backends, "dataframe_backend", "dataframe_backend_"); b != "" {
			backend = b
		}
		o.enumAny(dataframeAPIs, "dataframe_api", "dataframe_api_")
		s.Backend = backend
		s.Mode = o.enum("mode", sinkModes)
		s.ResetMode = o.enum("reset_mode", resetModes)
		s.IsQuarantine = o.boolean("is_quarantine")
		s.CheckpointPath = o.strAny("checkpoint_path", "checkpoint_path_")
		if v, ok := o.optBool("as_stream"); ok {
			s.AsStream = &v
		}
		s.WriterKwargs = o.anyMap("writer_kwargs")
		s.WriterMethods = d.methods(o, "writer_methods")
		s.Schema = d.schema(o, "schema", "schema_definition")
		s.MergeCDC = d.decodeMergeCDC(o.raw("merge_cdc_options"))
		if cw := o.raw("custom_writer"); !cw.isNull() {
			if cw.kind == vScalar {
				s.CustomWriter = cw.value
			} else if co := d.object(cw, "custom_writer"); co != nil {
				co.check(funcKeys)
				s.CustomWriter = co.required("func_name")
			}
		}
		if sh := o.raw("shared"); !sh.isNull() {
			s.Shared = d.shared(sh, o)
		}
		switch s.Kind {
		case SinkFile:
			s.Path = o.required("path")
			s.ResolvedPath = d.resolveDeclared(pc.file, s.Path)
			d.sinkFormat(o, s)
			s.Table = TableID(s.ResolvedPath)
		case SinkTable:
			s.TableName = o.required("table_name")
			s.CatalogName, s.SchemaName = o.str("catalog_name"), o.str("schema_name")
			s.Format = o.enum("format", tableFormats)
			s.TableType = o.enum("table_type", tableTypes)
			s.TableRef, s.Table = d.tableRef(o, s.TableName, s.CatalogName, s.SchemaName)
			s.Metadata = d.metadata(o)
		case SinkPipelineView:
			s.PipelineViewName = o.required("pipeline_view_name")
			s.Metadata = d.metadata(o)
		}
	})
	return s
}

func (d *decoder) shared(n *vnode, sink *obj) *Shared {
	if n.kind == vScalar {
		b, ok := sink.optBool("shared")
		if !ok || !b {
			return nil
		}
		return &Shared{Located: Located{Pos: n.pos(), Fields: map[string]Pos{}}}
	}
	o := d.object(n, "`shared`")
	if o == nil {
		return nil
	}
	sh := &Shared{}
	d.withScope(o.n, func() {
		o.check(sharedKeys)
		sh.Located = o.loc
		sh.WriterID = o.strAny("writer_id", "writer_id_")
		sh.Column = o.str("column")
		if o.has("where") {
			sh.Where = strings.TrimSpace(o.str("where"))
			if sh.Where == "" {
				d.errorf(o.loc.At("where"), CodeMissingField, "write the SQL predicate of the rows this writer owns, e.g. client_id = 23",
					"`shared.where` is empty")
			}
		}
		if sh.Where != "" && (sh.WriterID != "" || (sh.Column != "" && sh.Column != DefaultWriterColumn)) {
			at := o.loc.At("writer_id")
			if sh.WriterID == "" {
				at = o.loc.At("column")
			}
			d.errorf(at, CodeConflictingKeys, "remove `writer_id` and `column`, or remove `where` to use a writer column",
				"`shared.where` identifies the rows of the writer without a writer column: `writer_id` and `column` can't be set with it.")
		}
	})
	return sh
}

func (d *decoder) methods(o *obj, key string) []Method {
	var out []Method
	for _, it := range o.list(key) {
		mo := d.object(it, "method of `"+key+"`")
		if mo == nil {
			continue
		}
		mo.check(methodKeys)
		m := Method{Name: mo.required("name"), Pos: mo.loc.Pos}
		if a := mo.raw("args"); !a.isNull() {
			if a.kind == vSeq {
				m.Args, _ = d.toAny(a).([]any)
			} else {
				m.Args = []any{d.toAny(a)}
			}
		}
		m.Kwargs = mo.anyMap("kwargs")
		out = append(out, m)
	}
	return out
}

func (d *decoder) schema(o *obj, keys ...string) *Schema {
	n, key := o.rawAny(keys...)
	if n.isNull() {
		return nil
	}
	so := d.object(n, "`"+key+"`")
	if so == nil {
		return nil
	}
	so.check(schemaKeys)
	sc := &Schema{Located: so.loc}
	cols := so.raw("columns")
	switch {
	case cols.isNull():
		d.errorf(so.loc.Pos, CodeMissingField, "list the columns: `columns: {name: type}`", "`%s` needs `columns`", key)
	case cols.kind == vMap:
		for i, k := range cols.keys {
			v := d.resolve(cols.vals[i])
			c := Column{Name: k.value, Nullable: true}
			if v.kind == vScalar {
				c.DType = d.dtype(v, "the dtype of column '"+k.value+"'")
			} else if co := d.object(v, "column '"+k.value+"'"); co != nil {
				co.check(columnKeys)
				c.DType = d.columnDType(co)
				if b, ok := co.optBool("nullable"); ok {
					c.Nullable = b
				}
			}
			c.setType()
			sc.Columns = append(sc.Columns, c)
		}
	case cols.kind == vSeq:
		for _, it := range cols.vals {
			if co := d.object(it, "column"); co != nil {
				co.check(columnKeys)
				c := Column{Name: co.required("name"), DType: d.columnDType(co), Nullable: true}
				if b, ok := co.optBool("nullable"); ok {
					c.Nullable = b
				}
				c.setType()
				sc.Columns = append(sc.Columns, c)
			}
		}
	default:
		so.typeErr("columns", cols, "a mapping of `name: type` or a list of columns")
	}
	return sc
}

// columnDType reads a column's required `dtype`.
func (d *decoder) columnDType(co *obj) *DType {
	if !co.has("dtype") || co.raw("dtype").isNull() {
		co.required("dtype") // the missing field's diagnostic
		return nil
	}
	return d.dtype(d.resolve(co.raw("dtype")), "`dtype` of "+co.what)
}

// dtypeKeys are the keys of Laktory 0.13.1's DType (models/dtypes.py), and
// dfieldKeys those of a Struct's field (DField).
var (
	dtypeKeys  = []string{"variables", "name", "inner", "fields", "shape", "time_unit", "time_zone", "category"}
	dfieldKeys = []string{"variables", "name", "dtype"}
)

// dtype reads a dtype as Laktory's DType does: a name, or a mapping with
// `name` and, for nested types, `inner`, `fields` and `shape`. Whether
// Laktory knows the name and the nested type has what it needs is
// checked by validate (LK109), which keeps the positions.
func (d *decoder) dtype(n *vnode, what string) *DType {
	if n.isNull() {
		return nil
	}
	if n.kind == vScalar {
		return &DType{Located: Located{Pos: n.pos()}, Name: n.value}
	}
	o := d.object(n, what)
	if o == nil {
		return nil
	}
	o.check(dtypeKeys)
	t := &DType{Located: o.loc, Name: o.required("name"), Shape: !o.raw("shape").isNull()}
	if in := o.raw("inner"); !in.isNull() {
		t.Inner = d.dtype(d.resolve(in), "`inner` of "+what)
	}
	if tz := o.raw("time_zone"); o.has("time_zone") && tz.isNull() {
		t.NoTimeZone = true
	}
	t.TimeUnit = o.str("time_unit")
	if fs := o.raw("fields"); !fs.isNull() {
		t.HasFields = true
		if fs.kind != vSeq {
			o.typeErr("fields", fs, "a list of fields ({name, dtype})")
		}
		for _, it := range fs.vals {
			if fo := d.object(d.resolve(it), "a field of "+what); fo != nil {
				fo.check(dfieldKeys)
				f := DField{Name: fo.required("name")}
				f.DType = d.columnDType(fo)
				t.Fields = append(t.Fields, f)
			}
		}
	}
	return t
}

func (d *decoder) metadata(o *obj) *TableMetadata {
	n := o.raw("metadata")
	if n.isNull() {
		return nil
	}
	mo := d.object(n, "`metadata`")
	if mo == nil {
		return nil
	}
	mo.check(metadataKeys)
	m := &TableMetadata{Located: mo.loc, Comment: mo.str("comment"), Properties: mo.strMap("properties")}
	if cols := mo.raw("columns"); !cols.isNull() && cols.kind == vSeq {
		for _, it := range cols.vals {
			if it = d.resolve(it); it == nil || it.kind != vMap {
				continue // the schema's type check reports it
			}
			if co := d.object(it, "a column of `metadata.columns`"); co != nil {
				m.Columns = append(m.Columns, &ColumnMetadata{Located: co.loc, Name: co.str("name"), Comment: co.str("comment")})
			}
		}
	}
	return m
}

func (d *decoder) transformer(n *vnode, pc pctx) []*Step {
	o := d.object(n, fmt.Sprintf("transformer of node '%s'", pc.node))
	if o == nil {
		return nil
	}
	var steps []*Step
	d.withScope(o.n, func() {
		o.check(transformerKeys)
		if !o.has("nodes") {
			d.errorf(o.loc.Pos, CodeMissingField, "list the steps under `nodes:` (each an `expr:` or a `func_name:`)", "the transformer needs `nodes`")
		}
		for i, it := range o.list("nodes") {
			if s := d.step(it, i, pc); s != nil {
				steps = append(steps, s)
			}
		}
	})
	return steps
}

func (d *decoder) step(n *vnode, i int, pc pctx) *Step {
	o := d.object(n, fmt.Sprintf("transformer step #%d of node '%s'", i+1, pc.node))
	if o == nil {
		return nil
	}
	s := &Step{Index: i}
	d.withScope(o.n, func() {
		s.Located = o.loc
		hasExpr, hasFunc := o.has("expr"), o.has("func_name")
		switch {
		case hasExpr && hasFunc:
			d.errorf(o.loc.Pos, CodeAmbiguousKind, "split it into two steps", "%s sets both `expr` and `func_name`", o.what)
			o.check(stepExprKeys, stepFuncKeys)
		case hasFunc:
			o.check(stepFuncKeys)
		case hasExpr:
			o.check(stepExprKeys)
		default:
			d.errorf(o.loc.Pos, CodeMissingField, "write `expr: SELECT ... FROM {df}` or `func_name: ...`", "%s needs `expr` (SQL) or `func_name`", o.what)
			o.check(stepExprKeys, stepFuncKeys)
		}
		s.DataframeAPI = o.enumAny(dataframeAPIs, "dataframe_api", "dataframe_api_")
		if s.DataframeAPI == "" {
			s.DataframeAPI = pc.api
		}
		o.enumAny(backends, "dataframe_backend", "dataframe_backend_")
		if hasExpr {
			s.Expr = o.str("expr")
			o.enum("type", stepTypes)
		}
		if hasFunc {
			s.FuncName = o.required("func_name")
			if a := o.raw("func_args"); !a.isNull() {
				if a.kind != vSeq {
					o.typeErr("func_args", a, "a list")
				} else {
					for j, it := range a.vals {
						d.dataSourceArg(it, fmt.Sprintf("func_args[%d]", j))
						s.FuncArgs = append(s.FuncArgs, Arg{Value: d.argValue(it), Pos: it.pos()})
					}
				}
			}
			if kw := o.raw("func_kwargs"); !kw.isNull() {
				if kw.kind != vMap {
					o.typeErr("func_kwargs", kw, "a mapping")
				} else {
					for j, k := range kw.keys {
						d.dataSourceArg(kw.vals[j], fmt.Sprintf("func_kwargs['%s']", k.value))
						s.FuncKwargs = append(s.FuncKwargs, Arg{Name: k.value, Value: d.argValue(kw.vals[j]), Pos: kw.vals[j].pos()})
					}
				}
			}
		}
	})
	return s
}

// dataSourceTypes are the `type` values of Laktory's data sources.
var dataSourceTypes = []string{"PIPELINE_NODE", "FILE", "DATAFRAME", "UNITY_CATALOG", "HIVE_METASTORE"}

// dataSourceArg reports a data source given as a function argument (the
// syntax before Laktory 0.13), with Laktory 0.13.1's message.
func (d *decoder) dataSourceArg(n *vnode, where string) {
	if n == nil || n.kind != vMap {
		return
	}
	if name := n.get("node_name"); name != nil {
		d.errorf(n.pos(), CodeRenamed, fmt.Sprintf("write '{nodes.%s}' in place of the mapping", name.value),
			"%s: DataSource objects must not be passed directly as function arguments. Use the string reference '{nodes.%s}' instead.", where, name.value)
		return
	}
	if t := n.get("type"); t != nil && slices.Contains(dataSourceTypes, t.value) {
		d.errorf(n.pos(), CodeRenamed, "declare the source under the node's `sources` with a `name`, and write '{sources.<name>}' in place of the mapping",
			"%s: DataSource objects must not be passed directly as function arguments. Declare the source on the pipeline node and reference it with '{sources.<name>}' string syntax instead.", where)
	}
}

// argValue unwraps a serialized DataFrameMethodArg ({value: x}).
func (d *decoder) argValue(n *vnode) any {
	v := d.toAny(n)
	if m, ok := v.(map[string]any); ok && len(m) == 1 {
		if x, ok := m["value"]; ok {
			return x
		}
	}
	return v
}

var refRe = regexp.MustCompile(`\{(nodes|sources)\.([^{}]*)\}`)

// refs collects {nodes.x} and {sources.x} references of a transformer.
func (d *decoder) refs(steps []*Step) (nodes, sources []NodeRef) {
	add := func(s string, at Pos) {
		for _, m := range refRe.FindAllStringSubmatch(s, -1) {
			r := NodeRef{Name: m[2], Pos: at}
			if m[1] == "nodes" {
				nodes = append(nodes, r)
			} else {
				sources = append(sources, r)
			}
		}
	}
	var walk func(v any, at Pos)
	walk = func(v any, at Pos) {
		switch x := v.(type) {
		case string:
			add(x, at)
		case []any:
			for _, e := range x {
				walk(e, at)
			}
		case map[string]any:
			for _, e := range x {
				walk(e, at)
			}
		}
	}
	for _, s := range steps {
		if s.IsSQL() {
			add(s.Expr, s.At("expr"))
		}
		for _, a := range s.FuncArgs {
			walk(a.Value, a.Pos)
		}
		for _, a := range s.FuncKwargs {
			walk(a.Value, a.Pos)
		}
	}
	return nodes, sources
}

func (d *decoder) expectation(n *vnode, i int) *Expectation {
	o := d.object(n, fmt.Sprintf("expectation #%d", i+1))
	if o == nil {
		return nil
	}
	e := &Expectation{}
	d.withScope(o.n, func() {
		o.check(expectationKeys)
		e.Located = o.loc
		e.Name = o.required("name")
		if x := o.raw("expr"); x != nil && x.kind == vMap {
			if xo := d.object(x, "expectation expr"); xo != nil {
				xo.check(columnExprKeys)
				e.Expr = xo.required("expr")
			}
		} else {
			e.Expr = o.str("expr")
		}
		e.Action = o.enum("action", actions)
		if e.Action == "" {
			e.Action = "WARN"
		}
		e.Type = o.enum("type", expectTypes)
		if e.Type == "" {
			e.Type = "ROW"
		}
		if t := o.raw("tolerance"); !t.isNull() {
			if to := d.object(t, "tolerance"); to != nil {
				to.check(toleranceKeys)
				if v := to.raw("abs"); !v.isNull() {
					if x, ok := scalarValue(v).(int64); ok && v.kind == vScalar {
						e.ToleranceAbs = &x
					} else {
						to.typeErr("abs", v, "an integer")
					}
				}
				if v := to.raw("rel"); !v.isNull() {
					switch x := scalarValue(v).(type) {
					case float64:
						e.ToleranceRel = &x
					case int64:
						f := float64(x)
						e.ToleranceRel = &f
					default:
						to.typeErr("rel", v, "a number")
					}
				}
			}
		}
	})
	return e
}

func (d *decoder) flow(n *vnode) *Flow {
	o := d.object(n, "`flow`")
	if o == nil {
		return nil
	}
	o.check(flowKeys)
	f := &Flow{Located: o.loc}
	f.Name = o.str("name")
	f.Once = o.boolean("once")
	f.ImportCheckpoint = o.str("import_checkpoint")
	f.Comment = o.str("comment")
	f.SparkConf = o.strMap("spark_conf")
	f.Kind = o.enum("kind", flowKinds)
	if f.Kind == "" {
		f.Kind = FlowAppend
	}
	return f
}

var placeholderRe = regexp.MustCompile(`\{([^{}]*)\}`)

func (d *decoder) forEach(n *vnode, at Pos) *ForEach {
	o := d.object(n, "`foreach`")
	if o == nil {
		return &ForEach{Located: Located{Pos: at}}
	}
	o.check(forEachKeys)
	fe := &ForEach{Located: o.loc, Name: o.str("name")}
	if c := o.raw("command"); !c.isNull() {
		if c.kind == vScalar {
			o.typeErr("command", c, `a list: the program and its arguments, e.g. ["sh", "-c", "cat >> out.jsonl"]`)
		} else {
			fe.Command = o.strList("command")
			if len(fe.Command) == 0 {
				d.errorf(o.loc.At("command"), CodeMissingField, `e.g. command: ["sh", "-c", "cat >> out.jsonl"]`, "`foreach.command` is empty: name the program to run")
			}
		}
	}
	if h := o.raw("http"); !h.isNull() {
		if ho := d.object(h, "`foreach.http`"); ho != nil {
			ho.check(httpKeys)
			w := &HTTPWriter{Located: ho.loc}
			w.Method = ho.enum("method", httpMethods)
			if w.Method == "" {
				w.Method = "PUT"
			}
			w.URL = ho.required("url")
			for _, m := range placeholderRe.FindAllStringSubmatch(w.URL, -1) {
				w.URLColumns = append(w.URLColumns, strings.TrimSpace(m[1]))
			}
			w.Headers = ho.strMap("headers")
			if t := ho.raw("timeout"); !t.isNull() {
				w.Timeout = d.duration(ho, "timeout", t)
			}
			fe.HTTP = w
		}
	}
	return fe
}

// duration reads seconds (a number) or a Go duration ("10s", "1m30s").
func (d *decoder) duration(o *obj, key string, v *vnode) time.Duration {
	if v.kind == vScalar {
		if f, err := strconv.ParseFloat(v.value, 64); err == nil && f >= 0 {
			return time.Duration(f * float64(time.Second))
		}
		if dur, err := time.ParseDuration(v.value); err == nil && dur >= 0 {
			return dur
		}
	}
	o.typeErr(key, v, "seconds (e.g. 10) or a duration (e.g. 1m30s)")
	return 0
}
