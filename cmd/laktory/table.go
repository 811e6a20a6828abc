package main

import (
	"bytes"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/lake"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
	"github.com/spf13/cobra"
)

// tableFlags locate a table and pick its version.
type tableFlags struct {
	dir       string
	lake      string
	version   int64
	timestamp string
}

func (f *tableFlags) register(cmd *cobra.Command, timeTravel bool) {
	cmd.Flags().StringVar(&f.dir, "dir", ".", "workspace folder, to resolve table names")
	cmd.Flags().StringVar(&f.lake, "lake", "", "lake root (default: $LAKTORY_LAKE, else DIR/.laktory/lake)")
	registerTableCompletions(cmd)
	if timeTravel {
		cmd.Flags().Int64Var(&f.version, "version", -1, "read this version of the table (time travel)")
		cmd.Flags().StringVar(&f.timestamp, "timestamp", "", "read the version current at this time (RFC 3339, or YYYY-MM-DD[ HH:MM:SS] in UTC)")
	}
}

// openTable resolves TABLE: an existing folder is a table path; anything
// else is a workspace table name ([catalog.][schema.]table) under the lake.
func (a *app) openTable(arg string, f tableFlags) (*delta.Table, error) {
	path, err := a.tablePath(arg, f)
	if err != nil {
		return nil, err
	}
	if delta.IsView(path) {
		return nil, fmt.Errorf("%w: %s is a view (%s): it has no Delta log; `laktory table describe` shows its SQL, `laktory table scan` its rows", delta.ErrNotDeltaTable, arg, filepath.Join(path, delta.ViewFileName))
	}
	return delta.Open(a.ctx, path)
}

// tablePath resolves TABLE to its folder (openTable).
func (a *app) tablePath(arg string, f tableFlags) (string, error) {
	path := arg
	if _, err := os.Stat(arg); err != nil && !strings.ContainsAny(arg, `/\`) {
		layout, diags, err := workspace.OpenLayout(f.dir, f.lake, a.getenv(workspace.LakeEnv))
		if err != nil {
			return "", err
		}
		if workspace.HasErrors(diags) {
			return "", fmt.Errorf("%w: %s", workspace.ErrConfig, diags[0])
		}
		ref := workspace.ParseTableName(arg, "", "")
		path = layout.TablePath(ref)
		if layout.RemoteLake() {
			return path, nil // in a bucket: delta.Open says when no table is there
		}
		if _, err := os.Stat(path); err != nil {
			return "", fmt.Errorf("%w: no folder %s and no table %s in the lake (%s)", delta.ErrNotDeltaTable, arg, ref, path)
		}
	}
	return path, nil
}

// openSnapshot opens TABLE (openTable) at the version the flags ask for.
func (a *app) openSnapshot(arg string, f tableFlags) (*delta.Snapshot, error) {
	t, err := a.openTable(arg, f)
	if err != nil {
		return nil, err
	}
	var opts []delta.SnapshotOption
	switch {
	case f.version >= 0 && f.timestamp != "":
		return nil, usagef("--version and --timestamp cannot be used together")
	case f.version >= 0:
		opts = append(opts, delta.AtVersion(f.version))
	case f.timestamp != "":
		ts, err := parseTimestampFlag(f.timestamp)
		if err != nil {
			return nil, err
		}
		opts = append(opts, delta.AtTimestamp(ts))
	}
	return t.Snapshot(a.ctx, opts...)
}

func parseTimestampFlag(s string) (time.Time, error) {
	for _, l := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04", "2006-01-02"} {
		if ts, err := time.Parse(l, s); err == nil {
			return ts, nil
		}
	}
	return time.Time{}, usagef("--timestamp %q: use RFC 3339 (2024-05-01T12:00:00Z) or YYYY-MM-DD[ HH:MM:SS] (UTC)", s)
}

// columnJSON describes one column in `table describe --json`.
type columnJSON struct {
	Name      string `json:"name"`
	Type      string `json:"type"`
	Nullable  bool   `json:"nullable"`
	Partition bool   `json:"partition,omitempty"`
}

// describeJSON is the JSON form of `table describe`.
type describeJSON struct {
	Path      string       `json:"path"`
	Version   int64        `json:"version"`
	Timestamp *time.Time   `json:"timestamp,omitempty"`
	Operation string       `json:"operation,omitempty"`
	TableID   string       `json:"table_id"`
	Protocol  protocolJSON `json:"protocol"`
	Columns   []columnJSON `json:"columns"`
	// SchemaString is the Delta schema, as metaData.schemaString holds it.
	SchemaString      string            `json:"schema_string"`
	PartitionColumns  []string          `json:"partition_columns"`
	Properties        map[string]string `json:"properties"`
	Files             int               `json:"files"`
	SizeBytes         int64             `json:"size_bytes"`
	Rows              int64             `json:"rows"`
	RowsExact         bool              `json:"rows_exact"`
	AppTransactions   map[string]int64  `json:"app_transactions"`
	CheckpointVersion *int64            `json:"checkpoint_version,omitempty"`
}

// protocolJSON is a table's protocol in `table describe --json`.
type protocolJSON struct {
	MinReaderVersion int      `json:"min_reader_version"`
	MinWriterVersion int      `json:"min_writer_version"`
	ReaderFeatures   []string `json:"reader_features"`
	WriterFeatures   []string `json:"writer_features"`
}

// logEntryJSON is one version in `table log --json`: the commit's
// parameters and metrics keep Delta's names (they are data).
type logEntryJSON struct {
	Version             int64          `json:"version"`
	Timestamp           time.Time      `json:"timestamp"`
	Operation           string         `json:"operation,omitempty"`
	OperationParameters map[string]any `json:"operation_parameters"`
	OperationMetrics    map[string]any `json:"operation_metrics"`
	ReadVersion         *int64         `json:"read_version,omitempty"`
	IsolationLevel      string         `json:"isolation_level,omitempty"`
	IsBlindAppend       *bool          `json:"is_blind_append,omitempty"`
	UserName            string         `json:"user_name,omitempty"`
	Engine              string         `json:"engine,omitempty"`
}

func logEntries(h []delta.HistoryEntry) []logEntryJSON {
	out := make([]logEntryJSON, 0, len(h))
	for _, e := range h {
		l := logEntryJSON{Version: e.Version, Timestamp: e.Timestamp, Operation: e.Operation, OperationParameters: e.OperationParameters,
			OperationMetrics: e.OperationMetrics, ReadVersion: e.ReadVersion, IsolationLevel: e.IsolationLevel, IsBlindAppend: e.IsBlindAppend,
			UserName: e.UserName, Engine: e.Engine}
		if l.OperationParameters == nil {
			l.OperationParameters = map[string]any{}
		}
		if l.OperationMetrics == nil {
			l.OperationMetrics = map[string]any{}
		}
		out = append(out, l)
	}
	return out
}

func describeSnapshot(s *delta.Snapshot) describeJSON {
	pr := s.Protocol()
	d := describeJSON{Path: s.Root(), Version: s.Version(), TableID: s.TableID(),
		Protocol: protocolJSON{MinReaderVersion: pr.MinReaderVersion, MinWriterVersion: pr.MinWriterVersion,
			ReaderFeatures: nonNil(pr.ReaderFeatures), WriterFeatures: nonNil(pr.WriterFeatures)},
		SchemaString: s.Schema().String(), PartitionColumns: nonNil(s.PartitionColumns()), Properties: s.Properties(),
		Files: s.NumFiles(), SizeBytes: s.SizeInBytes(), AppTransactions: s.AppTransactions(), Columns: []columnJSON{}}
	if d.Properties == nil {
		d.Properties = map[string]string{}
	}
	if d.AppTransactions == nil {
		d.AppTransactions = map[string]int64{}
	}
	if ts := s.Timestamp(); !ts.IsZero() {
		d.Timestamp = &ts
	}
	if ci := s.CommitInfo(); ci != nil {
		d.Operation = ci.Operation
	}
	d.Rows, d.RowsExact = s.NumRecords()
	if cp := s.CheckpointVersion(); cp >= 0 {
		d.CheckpointVersion = &cp
	}
	for _, f := range s.Schema().Fields {
		d.Columns = append(d.Columns, columnJSON{Name: f.Name, Type: f.Type.TypeName(), Nullable: f.Nullable,
			Partition: tableContainsFold(d.PartitionColumns, f.Name)})
	}
	return d
}

func tableContainsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func printDescribe(w io.Writer, d describeJSON) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "Table\t%s\n", d.Path)
	version := fmt.Sprint(d.Version)
	if d.Timestamp != nil {
		version += "  (" + d.Timestamp.UTC().Format(time.RFC3339)
		if d.Operation != "" {
			version += ", " + d.Operation
		}
		version += ")"
	}
	fmt.Fprintf(tw, "Version\t%s\n", version)
	fmt.Fprintf(tw, "Table id\t%s\n", d.TableID)
	fmt.Fprintf(tw, "Protocol\treader %d%s, writer %d%s\n", d.Protocol.MinReaderVersion, tableFeatureList(d.Protocol.ReaderFeatures),
		d.Protocol.MinWriterVersion, tableFeatureList(d.Protocol.WriterFeatures))
	part := "not partitioned"
	if len(d.PartitionColumns) > 0 {
		part = strings.Join(d.PartitionColumns, ", ")
	}
	fmt.Fprintf(tw, "Partitioned by\t%s\n", part)
	fmt.Fprintf(tw, "Files\t%s (%s)\n", human.Count(int64(d.Files)), human.Bytes(d.SizeBytes))
	rows := human.Count(d.Rows)
	if !d.RowsExact {
		rows = "at least " + human.Count(d.Rows) + " (some files have no stats)"
	}
	fmt.Fprintf(tw, "Rows\t%s\n", rows)
	tw.Flush()
	fmt.Fprintln(w, "\nColumns:")
	var cols bytes.Buffer
	tw = tabwriter.NewWriter(&cols, 0, 4, 2, ' ', 0)
	for _, c := range d.Columns {
		var notes []string
		if !c.Nullable {
			notes = append(notes, "not null")
		}
		if c.Partition {
			notes = append(notes, "partition")
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", c.Name, c.Type, strings.Join(notes, ", "))
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(cols.String(), "\n") {
		fmt.Fprint(w, strings.TrimRight(line, " \n")+strings.Repeat("\n", strings.Count(line, "\n")))
	}
	if len(d.Properties) > 0 {
		fmt.Fprintln(w, "\nProperties:")
		for _, k := range tableSortedKeys(d.Properties) {
			fmt.Fprintf(w, "  %s = %s\n", k, d.Properties[k])
		}
	}
	if len(d.AppTransactions) > 0 {
		fmt.Fprintln(w, "\nApplication transactions (txn):")
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, k := range tableSortedKeys(d.AppTransactions) {
			fmt.Fprintf(tw, "  %s\tversion %d\n", k, d.AppTransactions[k])
		}
		tw.Flush()
	}
}

func tableFeatureList(f []string) string {
	if len(f) == 0 {
		return ""
	}
	return " [" + strings.Join(f, ", ") + "]"
}

func tableSortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// tableCompactMap renders operation parameters / metrics as k=v pairs.
func tableCompactMap(m map[string]any, max int, c cutter) string {
	var parts []string
	for _, k := range tableSortedKeys(m) {
		v := m[k]
		s, ok := v.(string)
		if !ok {
			b, _ := json.Marshal(v)
			s = string(b)
		}
		parts = append(parts, k+"="+s)
	}
	return c.fit(strings.ReplaceAll(strings.Join(parts, " "), "\n", " "), max)
}

func init() {
	registerCommand("table", func(a *app) *cobra.Command {
		cmd := &cobra.Command{
			Use:   "table",
			Short: "Inspect a Delta table: describe it, list its history, scan its rows",
			Long: `table reads any Delta table: a folder (written by laktory, Spark, delta-rs...)
or a workspace table name ([catalog.][schema.]table, resolved under the lake
of the workspace given by --dir).`,
			Example: `  laktory table describe ./lake/main/default/prices
  laktory table log main.default.prices --dir ./demo
  laktory table scan prices --dir ./demo --where "region = 'EU'" --limit 10`,
			Args: cobra.ArbitraryArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					return usagef("unknown table command %q (use describe, log or scan)\nRun 'laktory table --help' for usage.", args[0])
				}
				return cmd.Help()
			},
		}
		cmd.AddCommand(a.tableDescribeCommand(), a.tableLogCommand(), a.tableScanCommand(), a.tableOptimizeCommand(), a.tableForgetWriterCommand())
		return cmd
	})
}

func (a *app) tableDescribeCommand() *cobra.Command {
	var f tableFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "describe TABLE",
		Short: "Show a table's version, schema, partitioning, files, rows and protocol",
		Example: `  laktory table describe ./lake/main/default/prices
  laktory table describe main.default.prices --dir ./demo --json
  laktory table describe prices --version 3`,
		Args: rangeArgs(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if path, err := a.tablePath(args[0], f); err == nil && delta.IsView(path) {
				if f.version >= 0 || f.timestamp != "" {
					return usagef("%s is a view: it has no versions (--version, --timestamp)", args[0])
				}
				v, err := delta.ReadView(path)
				if err != nil {
					return err
				}
				if asJSON {
					return a.printJSON(struct {
						Path string      `json:"path"`
						View *delta.View `json:"view"`
					}{path, v})
				}
				printView(a.stdout, path, v)
				return nil
			}
			s, err := a.openSnapshot(args[0], f)
			if err != nil {
				return err
			}
			d := describeSnapshot(s)
			if asJSON {
				return a.printJSON(d)
			}
			printDescribe(a.stdout, d)
			return nil
		},
	}
	f.register(cmd, true)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}

func (a *app) tableLogCommand() *cobra.Command {
	var f tableFlags
	var asJSON, wide bool
	var limit int
	cmd := &cobra.Command{
		Use:   "log TABLE",
		Short: "List a table's history (one line per version, newest first)",
		Example: `  laktory table log ./lake/main/default/prices
  laktory table log main.default.prices --dir ./demo --limit 5 --json`,
		Args: rangeArgs(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := a.openTable(args[0], f)
			if err != nil {
				return err
			}
			h, err := t.History(a.ctx, limit)
			if err != nil {
				return err
			}
			if asJSON {
				return a.printJSON(logEntries(h))
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "VERSION\tTIMESTAMP\tOPERATION\tPARAMETERS\tMETRICS")
			for _, e := range h {
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", e.Version, e.Timestamp.UTC().Format(time.RFC3339), e.Operation,
					tableCompactMap(e.OperationParameters, 50, a.cutter(wide)), tableCompactMap(e.OperationMetrics, 60, a.cutter(wide)))
			}
			return tw.Flush()
		},
	}
	f.register(cmd, false)
	cmd.Flags().IntVar(&limit, "limit", 0, "show at most this many versions (0: all)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	cmd.Flags().BoolVar(&wide, "wide", false, wideHelp)
	return cmd
}

func (a *app) tableScanCommand() *cobra.Command {
	var f tableFlags
	var limit int
	var where, format, columns string
	var asJSON, wide bool
	cmd := &cobra.Command{
		Use:   "scan TABLE",
		Short: "Print a table's rows (optionally filtered, projected, at a past version)",
		Long: `scan reads the rows of a table through DuckDB. --where takes a DuckDB SQL
condition on the table's columns; files whose partition values or statistics
rule it out are not read. --format jsonl prints one JSON object per row
(timestamps in RFC 3339, decimals as strings); --json is the same.

--format jsonl and csv (and --json) print every row unless --limit is given.
The table format prints the first 20 by default and then says how many
there are ("20 of N rows"); --limit 0 prints all.`,
		Example: `  laktory table scan ./lake/main/default/prices --limit 10
  laktory table scan main.default.prices --dir ./demo --where "writer = 'a' AND price > 10" --format csv
  laktory table scan prices --timestamp 2024-05-01T12:00:00Z --columns id,price --json`,
		Args: rangeArgs(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				format = "jsonl"
			}
			switch format {
			case "table", "jsonl", "csv":
			default:
				return usagef("--format %q: use table, jsonl or csv", format)
			}
			if limit < 0 {
				return usagef("--limit must be 0 (all rows) or more")
			}
			if !cmd.Flags().Changed("limit") && format != "table" {
				limit = 0 // machine output is never cut unless asked
			}
			opts := delta.ScanOptions{Where: where}
			if columns != "" {
				for _, c := range strings.Split(columns, ",") {
					opts.Columns = append(opts.Columns, strings.TrimSpace(c))
				}
			}
			if path, err := a.tablePath(args[0], f); err == nil && delta.IsView(path) {
				if f.version >= 0 || f.timestamp != "" {
					return usagef("%s is a view: it has no versions (--version, --timestamp)", args[0])
				}
				return a.scanView(path, opts, format, limit, wide)
			}
			s, err := a.openSnapshot(args[0], f)
			if err != nil {
				return err
			}
			tables := lake.Open()
			defer tables.Close()
			query := limit
			if limit > 0 {
				query = limit + 1 // one more tells whether rows were left out
			}
			rows, err := tables.Query(a.ctx, s, opts, query)
			if err != nil {
				if errors.Is(err, delta.ErrUnknownColumn) {
					return usageError{err}
				}
				return err
			}
			defer rows.Close()
			n, more, err := writeTableRows(a.stdout, rows, format, limit, a.cutter(wide))
			if err != nil || format != "table" {
				return err
			}
			switch {
			case more:
				total, err := tables.Count(a.ctx, s, opts)
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "(%s of %s; --limit 0 for all)\n", human.Count(int64(n)), human.Plural(total, "row"))
			default:
				fmt.Fprintf(a.stdout, "(%s)\n", human.Plural(int64(n), "row"))
			}
			return nil
		},
	}
	f.register(cmd, true)
	cmd.Flags().IntVar(&limit, "limit", 20, "print at most this many rows (0: all); jsonl and csv print all unless given")
	cmd.Flags().StringVar(&where, "where", "", "keep rows where this DuckDB SQL condition is true")
	cmd.Flags().StringVar(&columns, "columns", "", "comma-separated columns to print (default: all)")
	cmd.Flags().StringVar(&format, "format", "table", "output format: table, jsonl or csv")
	cmd.Flags().BoolVar(&asJSON, "json", false, "same as --format jsonl")
	cmd.Flags().BoolVar(&wide, "wide", false, wideHelp)
	return cmd
}

// writeTableRows prints at most limit query rows (0: all) in the given
// format, and returns how many it printed and whether more were left.
func writeTableRows(w io.Writer, rows *sql.Rows, format string, limit int, cut cutter) (n int, more bool, err error) {
	cols, err := rows.ColumnTypes()
	if err != nil {
		return 0, false, err
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name()
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var (
		enc   *json.Encoder
		cw    *csv.Writer
		table [][]string
	)
	switch format {
	case "jsonl":
		enc = json.NewEncoder(w)
		enc.SetEscapeHTML(false)
	case "csv":
		cw = csv.NewWriter(w)
		if err := cw.Write(names); err != nil {
			return 0, false, err
		}
	default:
		table = append(table, names)
	}
	for rows.Next() {
		if limit > 0 && n == limit {
			more = true
			break
		}
		if err := rows.Scan(ptrs...); err != nil {
			return n, false, err
		}
		n++
		switch format {
		case "jsonl":
			obj := make(tableJSONRow, len(cols))
			for i, c := range cols {
				obj[i] = tableJSONField{names[i], delta.JSONValue(vals[i], c.DatabaseTypeName())}
			}
			if err := enc.Encode(obj); err != nil {
				return n, false, err
			}
		case "csv":
			rec := make([]string, len(cols))
			for i, c := range cols {
				rec[i] = delta.TextValue(vals[i], c.DatabaseTypeName(), true)
			}
			if err := cw.Write(rec); err != nil {
				return n, false, err
			}
		default:
			rec := make([]string, len(cols))
			for i, c := range cols {
				rec[i] = cut.fit(strings.ReplaceAll(delta.TextValue(vals[i], c.DatabaseTypeName(), false), "\n", " "), 40)
			}
			table = append(table, rec)
		}
	}
	if err := rows.Err(); err != nil {
		return n, false, err
	}
	switch format {
	case "csv":
		cw.Flush()
		return n, more, cw.Error()
	case "table":
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, rec := range table {
			fmt.Fprintln(tw, strings.Join(rec, "\t"))
		}
		return n, more, tw.Flush()
	}
	return n, more, nil
}

// tableJSONRow is a JSON object keeping the columns in order.
type tableJSONRow []tableJSONField

type tableJSONField struct {
	name  string
	value any
}

func (r tableJSONRow) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, f := range r {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.name)
		v, err := json.Marshal(f.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// optimizeJSON is the JSON form of `table optimize`.
type optimizeJSON struct {
	Path      string              `json:"path"`
	Committed bool                `json:"committed"`
	Version   int64               `json:"version"`
	Attempts  int                 `json:"attempts"`
	Metrics   optimizeMetricsJSON `json:"metrics"`
}

// optimizeMetricsJSON is delta.OptimizeMetrics in the CLI's JSON style.
type optimizeMetricsJSON struct {
	FilesRemoved           int   `json:"files_removed"`
	FilesAdded             int   `json:"files_added"`
	BytesRemoved           int64 `json:"bytes_removed"`
	BytesAdded             int64 `json:"bytes_added"`
	Rows                   int64 `json:"rows"`
	PurgedRows             int64 `json:"purged_rows"`
	DeletionVectorsRemoved int   `json:"deletion_vectors_removed"`
	Partitions             int   `json:"partitions"`
}

func (a *app) tableOptimizeCommand() *cobra.Command {
	var f tableFlags
	var asJSON bool
	var minSize string
	cmd := &cobra.Command{
		Use:   "optimize TABLE",
		Short: "Compact a table's small files and purge the rows its deletion vectors hide",
		Long: `optimize rewrites, per partition, the files smaller than --min-file-size
(default: the table's target file size, delta.targetFileSize, else 128 MB)
into files of up to the target size, and rewrites every file with a deletion
vector without the rows it hides. It commits Delta's OPTIMIZE: no data
changes (streaming readers skip it), nothing is visible before the commit,
and a concurrent writer that removes one of the files makes it start again
(up to 5 times); concurrent appends go on undisturbed.`,
		Example: `  laktory table optimize ./lake/main/default/prices
  laktory table optimize main.default.events --dir ./demo --json
  laktory table optimize prices --min-file-size 32mb`,
		Args: rangeArgs(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var opts delta.OptimizeOptions
			if minSize != "" {
				n, err := delta.ParseByteSize(minSize)
				if err != nil || n <= 0 {
					return usagef("--min-file-size %q: give a size such as 134217728, 32mb or 1gb", minSize)
				}
				opts.MinFileSize = n
			}
			t, err := a.openTable(args[0], f)
			if err != nil {
				return err
			}
			tables := lake.Open()
			defer tables.Close()
			out := optimizeJSON{Path: t.Root()}
			for {
				out.Attempts++
				res, m, err := tables.Optimize(a.ctx, t.Root(), opts, delta.WriteOptions{})
				if delta.IsRetryable(err) && out.Attempts < 5 {
					time.Sleep(time.Duration(out.Attempts) * 100 * time.Millisecond)
					continue
				}
				if err != nil {
					return err
				}
				out.Committed, out.Version, out.Metrics = res.Committed, res.Version, optimizeMetricsJSON(m)
				break
			}
			if asJSON {
				return a.printJSON(out)
			}
			m := out.Metrics
			if !out.Committed {
				fmt.Fprintf(a.stdout, "%s: nothing to optimize (version %d)\n", out.Path, out.Version)
				return nil
			}
			fmt.Fprintf(a.stdout, "%s: version %d (OPTIMIZE): %s (%s) compacted into %s (%s), %s in %s",
				out.Path, out.Version, human.Plural(int64(m.FilesRemoved), "file"), human.Bytes(m.BytesRemoved),
				human.Plural(int64(m.FilesAdded), "file"), human.Bytes(m.BytesAdded), human.Plural(m.Rows, "row"),
				human.Plural(int64(m.Partitions), "partition"))
			if m.PurgedRows > 0 {
				fmt.Fprintf(a.stdout, "; %s hidden by deletion vectors purged", human.Plural(m.PurgedRows, "row"))
			}
			fmt.Fprintln(a.stdout)
			return nil
		},
	}
	f.register(cmd, false)
	cmd.Flags().StringVar(&minSize, "min-file-size", "", "compact files smaller than this (bytes, or 32mb, 1gb...; default: the target file size)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}

// nonNil is ss, or [] for none (JSON lists are [] when empty, never null).
func nonNil[T any](ss []T) []T {
	if ss == nil {
		return []T{}
	}
	return ss
}

// printView describes the view at path: its SQL, the tables it reads, its
// columns when it was created, who wrote it.
func printView(w io.Writer, path string, v *delta.View) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "View\t%s\n", path)
	fmt.Fprintf(tw, "Name\t%s\n", v.Name)
	fmt.Fprintf(tw, "Written by\t%s.%s, %s\n", v.Pipeline, v.Node, v.CreatedAt.UTC().Format(time.RFC3339))
	fmt.Fprintf(tw, "Dialect\t%s\n", v.Dialect)
	tw.Flush()
	fmt.Fprintf(w, "\nSQL:\n  %s\n", strings.ReplaceAll(v.SQL, "\n", "\n  "))
	fmt.Fprintln(w, "\nReads:")
	for _, in := range v.Inputs {
		fmt.Fprintf(w, "  %s  (%s)\n", in.Table, v.InputPath(path, in))
	}
	fmt.Fprintln(w, "\nColumns (when created):")
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range v.Columns {
		fmt.Fprintf(tw, "  %s\t%s\n", c.Name, c.Type)
	}
	tw.Flush()
}

// scanView prints the rows of the view at path, evaluated now over the
// tables it reads, by a runner confined to their folders.
func (a *app) scanView(path string, opts delta.ScanOptions, format string, limit int, wide bool) error {
	box, err := runner.ViewSandbox(path)
	if err != nil {
		return err
	}
	r, err := runner.New(runner.Config{Threads: a.threads(), Sandbox: box})
	if err != nil {
		return err
	}
	defer r.Close()
	query := limit
	if limit > 0 {
		query = limit + 1
	}
	vs, err := r.ScanView(a.ctx, path, opts.Columns, opts.Where, query)
	if err != nil {
		return err
	}
	defer vs.Close()
	n, more, err := writeTableRows(a.stdout, vs.Rows, format, limit, a.cutter(wide))
	if err != nil || format != "table" {
		return err
	}
	if more {
		fmt.Fprintf(a.stdout, "(%s of %s; --limit 0 for all)\n", human.Count(int64(n)), human.Plural(vs.Total, "row"))
	} else {
		fmt.Fprintf(a.stdout, "(%s)\n", human.Plural(int64(n), "row"))
	}
	return nil
}
