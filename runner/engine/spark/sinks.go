package spark

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
)

// Merge implements engine.Txn: Delta's MERGE INTO, run by Spark at
// Commit; the rows it inserted, updated and deleted are the commit's
// (CommitResult.Merge, from its operationMetrics).
func (t *Txn) Merge(_ context.Context, spec delta.MergeSpec) (delta.MergeMetrics, error) {
	if t.snap == nil {
		return delta.MergeMetrics{}, fmt.Errorf("spark: MERGE into %s, which does not exist", t.path)
	}
	stmt, err := mergeSQL(t.path, spec)
	if err != nil {
		return delta.MergeMetrics{}, err
	}
	return delta.MergeMetrics{}, t.stage("MERGE", stmt)
}

// mergeSQL is spec as Spark's MERGE INTO the Delta table at path: the
// target aliased target, the source source, as the spec's expressions
// name them.
func mergeSQL(path string, spec delta.MergeSpec) (string, error) {
	if len(spec.Keys) == 0 {
		return "", fmt.Errorf("spark: MERGE into %s without keys", path)
	}
	var on []string
	for _, k := range spec.Keys {
		op := " = "
		if k.NullSafe {
			op = " <=> "
		}
		on = append(on, "target."+quoteIdent(k.Target)+op+"source."+quoteIdent(k.Source))
	}
	if spec.TargetCondition != "" {
		on = append(on, "("+spec.TargetCondition+")")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "MERGE INTO %s AS target USING (%s) AS source ON %s", tableRef(path), spec.Source, strings.Join(on, " AND "))
	clause := func(head string, c delta.MergeClause) error {
		b.WriteString(head)
		if c.Condition != "" {
			b.WriteString(" AND (" + c.Condition + ")")
		}
		b.WriteString(" THEN ")
		switch c.Action {
		case delta.MergeUpdate:
			set := make([]string, len(c.Set))
			for i, a := range c.Set {
				set[i] = quoteIdent(a.Column) + " = " + a.Expr
			}
			b.WriteString("UPDATE SET " + strings.Join(set, ", "))
		case delta.MergeDelete:
			b.WriteString("DELETE")
		case delta.MergeInsert:
			cols, vals := make([]string, len(c.Set)), make([]string, len(c.Set))
			for i, a := range c.Set {
				cols[i], vals[i] = quoteIdent(a.Column), a.Expr
			}
			b.WriteString("INSERT (" + strings.Join(cols, ", ") + ") VALUES (" + strings.Join(vals, ", ") + ")")
		default:
			return fmt.Errorf("spark: MERGE into %s: unknown action %q", path, c.Action)
		}
		return nil
	}
	for _, c := range spec.Matched {
		if err := clause(" WHEN MATCHED", c); err != nil {
			return "", err
		}
	}
	for _, c := range spec.NotMatched {
		if err := clause(" WHEN NOT MATCHED", c); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// KeyScan implements engine.Txn: the table's columns cols as of the
// transaction's snapshot (Spark's MERGE checks its own conflicts when it
// commits).
func (t *Txn) KeyScan(_ context.Context, _ string, _ []delta.MergeKey, cols []string) (string, error) {
	if t.snap == nil {
		return "", fmt.Errorf("spark: scan of %s, which does not exist", t.path)
	}
	sel := "*"
	if cols != nil {
		q := make([]string, len(cols))
		for i, c := range cols {
			q[i] = quoteIdent(c)
		}
		sel = strings.Join(q, ", ")
	}
	return fmt.Sprintf("SELECT %s FROM %s VERSION AS OF %d", sel, tableRef(t.path), t.snap.Version()), nil
}

// createEmpty is the CREATE TABLE of a new table with the definition's
// schema and no rows (a MERGE target before its first merge).
func (t *Txn) createEmpty() string {
	cols := make([]string, len(t.def.Schema.Fields))
	for i, f := range t.def.Schema.Fields {
		cols[i] = quoteIdent(f.Name) + " " + f.Type.TypeName()
		if !f.Nullable {
			cols[i] += " NOT NULL"
		}
	}
	return "CREATE TABLE " + tableRef(t.path) + " (" + strings.Join(cols, ", ") + ") USING delta" + t.layout()
}

// mergeMetrics are the rows of a MERGE commit, from its operationMetrics.
func mergeMetrics(num func(...string) int64) *delta.MergeMetrics {
	return &delta.MergeMetrics{SourceRows: num("numSourceRows"), Inserted: num("numTargetRowsInserted"),
		Updated: num("numTargetRowsUpdated"), Deleted: num("numTargetRowsDeleted"), Copied: num("numTargetRowsCopied"),
		FilesAdded: int(num("numTargetFilesAdded")), FilesRemoved: int(num("numTargetFilesRemoved"))}
}

// fileSources are Spark's data sources of the file sinks' formats.
var fileSources = map[string]string{"PARQUET": "parquet", "CSV": "csv", "JSON": "json"}

// WriteFiles implements engine.Session: Spark's DataFrame writer of the
// format (Spark Connect's WriteOperation; CSV with a header), its part
// files partitioned by w.PartitionBy in Hive-style folders. One file
// (w.Single) is the one partition of the rows written to a folder beside
// target, then moved to target. The rows are counted first.
func (s *Session) WriteFiles(ctx context.Context, target, query string, w engine.FileWrite) (int64, error) {
	src, ok := fileSources[strings.ToUpper(w.Format)]
	if !ok {
		return 0, fmt.Errorf("%w: the Spark engine writes PARQUET, CSV and JSON files, not %s", engine.ErrUnsupported, w.Format)
	}
	if w.JSONArray {
		return 0, fmt.Errorf("%w: the Spark engine does not write a JSON array of the rows (a POLARS JSON sink, polars' write_json)", engine.ErrUnsupported)
	}
	if w.PolarsParts {
		return 0, fmt.Errorf("%w: the Spark engine does not write partitions as polars' write_parquet does (a POLARS sink's partition_by)", engine.ErrUnsupported)
	}
	var n int64
	if err := s.QueryRow(ctx, "SELECT count(*) FROM ("+query+")", &n); err != nil {
		return 0, err
	}
	dir := target
	if w.Single {
		dir = target + ".parts"
		query = "SELECT /*+ COALESCE(1) */ * FROM (" + query + ")"
	}
	cmd := writeCommand(dir, query, src, w.PartitionBy)
	if err := s.guard(ctx, func(ctx context.Context) error { return s.b.execute(ctx, cmd) }); err != nil {
		return 0, err
	}
	if !w.Single {
		return n, nil
	}
	// The parts folder is this call's own, beside the staging target the
	// caller created: a guard rooted at the target's folder removes it.
	defer func() { _ = delta.NewGuard([]string{filepath.Dir(target)}).RemoveAll(dir) }()
	parts, err := filepath.Glob(filepath.Join(dir, "part-*"))
	if err != nil {
		return 0, err
	}
	var data []string
	for _, p := range parts {
		if !strings.HasSuffix(p, ".crc") {
			data = append(data, p)
		}
	}
	if len(data) != 1 {
		return 0, fmt.Errorf("spark: the write of %s left %d part files in %s, not one", target, len(data), dir)
	}
	return n, os.Rename(data[0], target)
}

// writeCommand is the Spark Connect command (spark.connect.Command, as
// protojson) writing the rows of query as files of the data source src
// in the new folder dir.
func writeCommand(dir, query, src string, partitionBy []string) map[string]any {
	op := map[string]any{
		"input":  map[string]any{"sql": map[string]any{"query": query}},
		"source": src,
		"path":   filepath.ToSlash(dir),
		"mode":   "SAVE_MODE_ERROR_IF_EXISTS",
	}
	if src == "csv" {
		op["options"] = map[string]string{"header": "true"}
	}
	if len(partitionBy) > 0 {
		op["partitioningColumns"] = partitionBy
	}
	return map[string]any{"writeOperation": op}
}
