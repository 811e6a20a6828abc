package spark

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/workspace"
)

// streamOnly are reader options of streams, which the runner applies
// itself (file batches, Delta offsets): Spark's batch reader is not told.
var streamOnly = map[string]bool{
	"maxfilespertrigger": true, "maxbytespertrigger": true, "skipchangecommits": true, "ignoredeletes": true,
	"ignorechanges": true, "startingversion": true, "startingtimestamp": true, "readchangefeed": true,
	"schemalocation": true, "cloudfiles.format": true, "cloudfiles.schemalocation": true,
}

// ReadFiles implements engine.Session: Spark's reader of the format, with
// the source's options and declared schema, over exactly the files: a
// temporary view of Spark Connect's Read.DataSource naming each file as a
// path, its glob characters escaped (globEscape), so a name with glob
// characters (f?.csv, [f]1.csv, **, {a,b}) is that file only and never a
// pattern. Spark 4.2's batch reader globs the paths whatever DataSource's
// __globPaths__ says (TestSparkReadFilesExact read f1.csv for f?.csv with
// it false), so the option is not sent.
func (s *Session) ReadFiles(ctx context.Context, files []string, format string, src *workspace.Source) (string, error) {
	s.n++
	v := fmt.Sprintf("lk_files_%d", s.n)
	req, err := readFilesView(v, files, format, src)
	if err != nil {
		return "", err
	}
	if err := s.guard(ctx, func(ctx context.Context) error { return s.b.execute(ctx, req) }); err != nil {
		return "", err
	}
	s.views = append(s.views, v)
	return "SELECT * FROM " + quoteIdent(v), nil
}

// readFilesView is the Spark Connect command (spark.connect.Command, as
// protojson) creating the temporary view that reads the files: a
// CreateDataFrameViewCommand of a Read.DataSource with the format, the
// options, the declared schema and one path per file.
func readFilesView(view string, files []string, format string, src *workspace.Source) (map[string]any, error) {
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: the Spark engine reads no files of an empty list", engine.ErrUnsupported)
	}
	format = strings.ToUpper(format)
	opts := map[string]string{}
	name := ""
	switch format {
	case "CSV":
		name = "csv"
		// Laktory's defaults: a header, no type inference; a format written
		// in another case (`csv`) gets none of Laktory's options: Spark's
		// defaults (no header, no inference).
		if src == nil || src.WrittenFormat == "" {
			opts["header"], opts["inferSchema"] = "true", "false"
		}
		if src != nil && src.HasHeader != nil {
			opts["header"] = strconv.FormatBool(*src.HasHeader)
		}
		if src != nil && src.InferSchema != nil {
			opts["inferSchema"] = strconv.FormatBool(*src.InferSchema)
		}
	case "JSON":
		name, opts["multiLine"] = "json", "true"
	case "JSONL", "NDJSON":
		name = "json"
	case "PARQUET":
		name, opts["mergeSchema"] = "parquet", "true"
	case "TEXT":
		name = "text"
	default:
		return nil, fmt.Errorf("%w: the Spark engine reads CSV, JSON, JSONL, PARQUET and TEXT files, not %s", engine.ErrUnsupported, format)
	}
	if src != nil {
		for k, v := range src.ReaderKwargs {
			if !streamOnly[strings.ToLower(k)] && !strings.EqualFold(k, globPathsKey) {
				opts[k] = fmt.Sprint(v)
			}
		}
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = globEscape(filepath.ToSlash(f))
	}
	ds := map[string]any{"format": name, "options": opts, "paths": paths}
	if src != nil {
		if ddl := readerSchema(src.Schema); ddl != "" {
			ds["schema"] = ddl
		}
	}
	return map[string]any{"createDataframeView": map[string]any{
		"input":   map[string]any{"read": map[string]any{"dataSource": ds}},
		"name":    view,
		"replace": true,
	}}, nil
}

// globPathsKey is the option of Spark's DataSource (DataSource.GLOB_PATHS_KEY)
// that, "false", should take each path as a file's name rather than a
// pattern; a source's reader_kwargs may not set it (the paths are escaped).
const globPathsKey = "__globPaths__"

// globEscape escapes the characters of Hadoop's glob patterns (GlobPattern:
// \ * ? [ ] { } and the , of an alternation) with a backslash, so the
// globbing reader matches the one file of that name.
func globEscape(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`\*?[]{},`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// readerSchema is a declared source schema as the DDL of a reader's
// schema ("a BIGINT, b STRING"; "" when none), in backquotes: Spark
// Connect parses it with StructType.fromDDL, whatever the session's
// quoting of identifiers.
func readerSchema(sc *workspace.Schema) string {
	if sc == nil || len(sc.Columns) == 0 {
		return ""
	}
	cols := make([]string, len(sc.Columns))
	for i, c := range sc.Columns {
		cols[i] = "`" + strings.ReplaceAll(c.Name, "`", "``") + "` " + dialect.SparkTypeName(c.Type)
	}
	return strings.Join(cols, ", ")
}

// SaveParquet implements engine.Session: Spark writes the folder (one
// part-*.parquet file per task, one with the schema when there are no
// rows; its _SUCCESS and .crc files are not Parquet files).
func (s *Session) SaveParquet(ctx context.Context, dir, query string) error {
	return s.Exec(ctx, "INSERT OVERWRITE DIRECTORY "+quoteString(filepath.ToSlash(dir))+" USING parquet "+query)
}

// tableRef is the Delta table at path in Spark SQL (a table in a bucket
// through s3a).
func tableRef(path string) string {
	return "delta.`" + strings.ReplaceAll(s3aScheme(path), "`", "``") + "`"
}

// ScanTable implements engine.Session: the table as of the snapshot's
// version; a stream's files each as of the version that added it
// (selected by _metadata.file_path), so a later delete does not change
// what the batch reads.
func (s *Session) ScanTable(ctx context.Context, snap *delta.Snapshot, opts engine.Scan) (string, error) {
	if err := s.useBucket(ctx, snap.Root()); err != nil {
		return "", err
	}
	cols := "*"
	if opts.Columns != nil {
		q := make([]string, len(opts.Columns))
		for i, c := range opts.Columns {
			q[i] = quoteIdent(c)
		}
		cols = strings.Join(q, ", ")
	}
	where := ""
	if opts.Where != "" {
		where = " WHERE (" + opts.Where + ")"
	}
	root := snap.Root()
	if opts.Files == nil {
		return fmt.Sprintf("SELECT %s FROM %s VERSION AS OF %d%s", cols, tableRef(root), snap.Version(), where), nil
	}
	if len(opts.Files) == 0 {
		return fmt.Sprintf("SELECT %s FROM %s VERSION AS OF %d WHERE false", cols, tableRef(root), snap.Version()), nil
	}
	if len(opts.Versions) != len(opts.Files) {
		return "", fmt.Errorf("spark: a scan of files needs the version of each")
	}
	byVersion := map[int64][]string{}
	for i, f := range opts.Files {
		p, err := f.DecodedPath()
		if err != nil {
			return "", err
		}
		byVersion[opts.Versions[i]] = append(byVersion[opts.Versions[i]], quoteString(filePath(root, p)))
	}
	var parts []string
	for _, v := range slices.Sorted(maps.Keys(byVersion)) {
		parts = append(parts, fmt.Sprintf("SELECT * FROM %s VERSION AS OF %d WHERE _metadata.file_path IN (%s)", tableRef(root), v, strings.Join(byVersion[v], ", ")))
	}
	return fmt.Sprintf("SELECT %s FROM (%s)%s", cols, strings.Join(parts, " UNION ALL "), where), nil
}

// filePath is the _metadata.file_path Spark gives the data file p (decoded,
// relative to the table's root, or absolute) of the table at root.
func filePath(root, p string) string {
	if isBucketPath(root) {
		if strings.Contains(p, "://") {
			return s3aScheme(p)
		}
		return s3aScheme(strings.TrimSuffix(root, "/") + "/" + p)
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	return "file:" + filepath.ToSlash(p)
}

// Begin implements engine.Session.
func (s *Session) Begin(ctx context.Context, path string, snap *delta.Snapshot, def delta.TableDefinition, opts delta.WriteOptions) (engine.Txn, error) {
	if err := s.useBucket(ctx, path); err != nil {
		return nil, err
	}
	return &Txn{s: s, path: path, snap: snap, def: def, opts: opts}, nil
}

// Txn is a write to one Delta table, run by Spark at Commit.
type Txn struct {
	s    *Session
	path string
	snap *delta.Snapshot
	def  delta.TableDefinition
	opts delta.WriteOptions

	appID   string
	version int64
	op      string // APPEND, OVERWRITE, DELETE, TRUNCATE
	arg     string // the query or the predicate
}

// SetAppTransaction implements engine.Txn; the table's log, read in Go,
// says whether it already holds the batch.
func (t *Txn) SetAppTransaction(appID string, version int64) (bool, error) {
	t.appID, t.version = appID, version
	if t.snap == nil {
		return false, nil
	}
	v, ok := t.snap.AppTransactionVersion(appID)
	return ok && v >= version, nil
}

func (t *Txn) stage(op, arg string) error {
	if t.op != "" {
		return fmt.Errorf("%w: one operation per transaction on Spark (%s, then %s)", engine.ErrUnsupported, t.op, op)
	}
	t.op, t.arg = op, arg
	return nil
}

// Append implements engine.Txn.
func (t *Txn) Append(_ context.Context, query string) error { return t.stage("APPEND", query) }

// Overwrite implements engine.Txn.
func (t *Txn) Overwrite(_ context.Context, query string) error { return t.stage("OVERWRITE", query) }

// Delete implements engine.Txn.
func (t *Txn) Delete(_ context.Context, predicate string) error { return t.stage("DELETE", predicate) }

// Truncate implements engine.Txn.
func (t *Txn) Truncate(context.Context) error { return t.stage("TRUNCATE", "") }

// AddedRows implements engine.Txn: unknown until Spark commits.
func (t *Txn) AddedRows() int64 { return -1 }

// Abort implements engine.Txn: nothing was sent.
func (t *Txn) Abort() {}

// Session configurations of Delta's writes.
const (
	confTxnAppID   = "spark.databricks.delta.write.txnAppId"
	confTxnVersion = "spark.databricks.delta.write.txnVersion"
	confMetadata   = "spark.databricks.delta.commitInfo.userMetadata"
)

// Commit implements engine.Txn: the session's write configuration, the
// statement, then the commit Spark made, found in the table's history by
// its commitInfo.userMetadata.
func (t *Txn) Commit(ctx context.Context) (*delta.CommitResult, error) {
	s := t.s
	readVersion := int64(-1)
	if t.snap != nil {
		readVersion = t.snap.Version()
	}
	meta := t.opts.UserMetadata
	if meta == "" {
		meta = "laktory:" + uuid.NewString()
	}
	stmt, err := t.statement()
	if err != nil {
		return nil, err
	}
	// newInBucket is the query of a new table in a bucket, which Delta's
	// DataFrame writer creates (writeNew), or "".
	newInBucket := ""
	if t.snap == nil && isBucketPath(t.path) {
		if newInBucket, err = t.bucketCreate(); err != nil {
			return nil, err
		}
	}
	if newInBucket != "" && t.appID != "" {
		// As below: the empty table first, then the batch's own commit.
		if err := s.writeNew(ctx, t, "SELECT * FROM ("+newInBucket+") WHERE false"); err != nil {
			return nil, err
		}
		readVersion, newInBucket, stmt = 0, "", t.insert()
	}
	if t.snap == nil && t.appID != "" && newInBucket == "" && !isBucketPath(t.path) {
		// Create the table empty first: the batch's own commit then carries
		// its application transaction (a crash between them re-runs the
		// batch into the empty table).
		if err := s.Exec(ctx, t.create("SELECT * FROM ("+t.arg+") WHERE false")); err != nil {
			return nil, err
		}
		readVersion = 0
		stmt = t.insert()
	}
	confs := map[string]string{confMetadata: meta}
	if t.appID != "" {
		confs[confTxnAppID], confs[confTxnVersion] = t.appID, strconv.FormatInt(t.version, 10)
	}
	for k, v := range confs {
		if err := s.set(ctx, k, v); err != nil {
			return nil, err
		}
	}
	defer func() {
		for k := range confs {
			s.unset(context.WithoutCancel(ctx), k) //nolint:errcheck // the next write sets its own
		}
	}()
	if newInBucket != "" {
		err = s.writeNew(ctx, t, newInBucket)
	} else {
		err = s.Exec(ctx, stmt)
	}
	if err != nil {
		return nil, err
	}
	return t.committed(ctx, meta, readVersion)
}

// bucketCreate is the query whose rows make the new table in a bucket:
// a CREATE TABLE there would find the table's folder (its writer claims,
// _laktory/) and refuse it as an existing table, so Delta's DataFrame
// writer creates it, which looks for a Delta log only.
func (t *Txn) bucketCreate() (string, error) {
	if t.def.Description != "" {
		return "", fmt.Errorf("%w: a new table in a bucket with a description (%s): the Spark engine does not write its comment yet", engine.ErrUnsupported, t.path)
	}
	switch {
	case t.op == "APPEND" || t.op == "OVERWRITE":
		return t.arg, nil
	case t.op == "" && t.def.Schema != nil:
		cols := make([]string, len(t.def.Schema.Fields))
		for i, f := range t.def.Schema.Fields {
			if !f.Nullable {
				return "", fmt.Errorf("%w: a new table in a bucket with a NOT NULL column (%s of %s)", engine.ErrUnsupported, f.Name, t.path)
			}
			cols[i] = "CAST(NULL AS " + f.Type.TypeName() + ") AS " + quoteIdent(f.Name)
		}
		return "SELECT " + strings.Join(cols, ", ") + " WHERE false", nil
	}
	return "", nil // statement() said what is wrong
}

// writeNew creates the Delta table of t from query with Delta's DataFrame
// writer (mode error: DELTA_PATH_EXISTS when a Delta log is there), its
// partitioning and properties.
func (s *Session) writeNew(ctx context.Context, t *Txn, query string) error {
	props := map[string]string{}
	for k, v := range t.def.Properties {
		props[k] = v
	}
	cmd := map[string]any{"writeOperation": map[string]any{
		"input":               map[string]any{"sql": map[string]any{"query": query}},
		"source":              "delta",
		"path":                s3aScheme(t.path),
		"mode":                "SAVE_MODE_ERROR_IF_EXISTS",
		"partitioningColumns": append([]string{}, t.def.PartitionColumns...),
		"options":             props,
	}}
	return s.guard(ctx, func(ctx context.Context) error { return s.b.execute(ctx, cmd) })
}

// statement is the SQL of the staged operation.
func (t *Txn) statement() (string, error) {
	switch {
	case t.op == "" && t.snap == nil && t.def.Schema != nil:
		return t.createEmpty(), nil
	case t.op == "":
		return "", fmt.Errorf("spark: nothing to commit to %s", t.path)
	case t.snap == nil && (t.op == "APPEND" || t.op == "OVERWRITE"):
		return t.create(t.arg), nil
	case t.snap == nil:
		return "", fmt.Errorf("spark: %s of %s, which does not exist", t.op, t.path)
	case t.op == "APPEND":
		return t.insert(), nil
	case t.op == "OVERWRITE":
		return "CREATE OR REPLACE TABLE " + tableRef(t.path) + " USING delta" + t.layout() + " AS " + t.arg, nil
	case t.op == "MERGE":
		return t.arg, nil
	case t.op == "DELETE":
		return "DELETE FROM " + tableRef(t.path) + " WHERE " + t.arg, nil
	default: // TRUNCATE
		return "DELETE FROM " + tableRef(t.path), nil
	}
}

func (t *Txn) insert() string { return "INSERT INTO " + tableRef(t.path) + " BY NAME " + t.arg }

// create is the CREATE TABLE ... AS query of a new table.
func (t *Txn) create(query string) string {
	return "CREATE TABLE " + tableRef(t.path) + " USING delta" + t.layout() + " AS " + query
}

// layout is the partitioning and properties of the table definition.
func (t *Txn) layout() string {
	var b strings.Builder
	if len(t.def.PartitionColumns) > 0 {
		q := make([]string, len(t.def.PartitionColumns))
		for i, c := range t.def.PartitionColumns {
			q[i] = quoteIdent(c)
		}
		b.WriteString(" PARTITIONED BY (" + strings.Join(q, ", ") + ")")
	}
	if t.def.Description != "" {
		b.WriteString(" COMMENT " + quoteString(t.def.Description))
	}
	if len(t.def.Properties) > 0 {
		var ps []string
		for _, k := range slices.Sorted(maps.Keys(t.def.Properties)) {
			ps = append(ps, quoteString(k)+" = "+quoteString(t.def.Properties[k]))
		}
		b.WriteString(" TBLPROPERTIES (" + strings.Join(ps, ", ") + ")")
	}
	return b.String()
}

// committed finds the commit marked meta in the table's history (none:
// Spark had nothing to commit, e.g. a delete matching no row).
func (t *Txn) committed(ctx context.Context, meta string, readVersion int64) (*delta.CommitResult, error) {
	rs, names, err := t.s.named(ctx, "DESCRIBE HISTORY "+tableRef(t.path)+" LIMIT 20")
	if err != nil {
		return nil, err
	}
	res := &delta.CommitResult{Version: readVersion, ReadVersion: readVersion}
	col := func(r []any, name string) any { return r[slices.Index(names, name)] }
	i := slices.IndexFunc(rs, func(r []any) bool { return fmt.Sprint(col(r, "userMetadata")) == meta })
	if i < 0 {
		return res, nil
	}
	var m map[string]string
	if err := scan([]any{col(rs[i], "version"), col(rs[i], "operation"), col(rs[i], "operationMetrics")}, []any{&res.Version, &res.Operation, &m}); err != nil {
		return nil, err
	}
	res.Committed = true
	num := func(keys ...string) int64 {
		for _, k := range keys {
			if v, err := strconv.ParseInt(m[k], 10, 64); err == nil {
				return v
			}
		}
		return 0
	}
	res.Metrics.AddedRows = num("numOutputRows", "numCopiedRows")
	res.Metrics.DeletedRows = num("numDeletedRows")
	res.Metrics.AddedFiles = int(num("numFiles", "numAddedFiles"))
	res.Metrics.RemovedFiles = int(num("numRemovedFiles"))
	if res.Operation == "MERGE" {
		res.Merge = mergeMetrics(num)
	}
	if res.Operation == "DELETE" {
		res.Metrics.AddedRows = 0
	}
	return res, nil
}
