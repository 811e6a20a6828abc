package polarssql

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/sqlfront"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus/status*.txt")

// The differential corpus: steps with the results Laktory 0.13.1's Polars
// backend computed (polars 1.32.0, delta-rs; scripts/polars/corpus.sh).
// Each step runs through a local evaluation of POLARS steps over the same
// fixture tables, and its outcome is classed: Polars' rows, column names
// and the Delta types its sink writes (exact); refused when validating
// (as Polars refuses, or naming what is not supported); or not: a
// different result, a success where Laktory fails, a failure at run time.
// testdata/corpus/status-before.txt records the outcomes of the
// evaluation POLARS steps had before this package (DuckDB's semantics
// behind LK197).

type corpusCase struct {
	file   string // family: the file name without .sql; heldout/ prefix for the held-out part
	name   string
	inputs map[string]string
	mode   string // query, filter, select
	sql    string
}

type expected struct {
	Schema       [][2]string       `json:"schema"`
	Rows         []json.RawMessage `json:"rows"`
	Delta        [][2]string       `json:"delta"`
	Error        string            `json:"error"`
	Message      string            `json:"message"`
	WriteError   string            `json:"write_error"`
	WriteMessage string            `json:"write_message"`
}

// fails reports whether Laktory fails the step (computing or writing it).
func (e *expected) fails() bool { return e.Error != "" || e.WriteError != "" }

var headerRe = regexp.MustCompile(`^--\s*(name|inputs|mode):\s*(.*)$`)

func readCases(t testing.TB, path, family string) []*corpusCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*corpusCase
	var cur *corpusCase
	var body []string
	flush := func() {
		if cur != nil {
			cur.sql = strings.TrimSpace(strings.Join(body, "\n"))
			out = append(out, cur)
		}
		body = nil
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		m := headerRe.FindStringSubmatch(line)
		switch {
		case m != nil && m[1] == "name":
			flush()
			cur = &corpusCase{file: family, name: strings.TrimSpace(m[2]), inputs: map[string]string{}, mode: "query"}
		case m != nil && cur != nil && len(body) == 0:
			v := strings.TrimSpace(m[2])
			switch m[1] {
			case "inputs":
				for _, p := range strings.Split(v, ",") {
					k, tb, _ := strings.Cut(strings.TrimSpace(p), "=")
					cur.inputs[strings.TrimSpace(k)] = strings.TrimSpace(tb)
				}
			case "mode":
				cur.mode = v
			}
		case cur != nil:
			body = append(body, line)
		}
	}
	flush()
	return out
}

type fixture struct {
	cols  []dialect.Column
	types []*Type
}

func loadFixtures(t testing.TB, db *sql.DB) map[string]*fixture {
	t.Helper()
	raw, err := os.ReadFile("testdata/corpus/tables.json")
	if err != nil {
		t.Fatal(err)
	}
	var tables map[string]struct {
		Schema [][2]string         `json:"schema"`
		Rows   [][]json.RawMessage `json:"rows"`
	}
	if err := json.Unmarshal(raw, &tables); err != nil {
		t.Fatal(err)
	}
	out := map[string]*fixture{}
	for name, tb := range tables {
		fx := &fixture{}
		var defs []string
		for _, c := range tb.Schema {
			ty, err := ParseType(c[1])
			if err != nil {
				t.Fatalf("table %s column %s: %v", name, c[0], err)
			}
			fx.types = append(fx.types, ty)
			fx.cols = append(fx.cols, dialect.Column{Name: c[0], Type: ty.DuckDB()})
			defs = append(defs, dialect.QuoteIdent(c[0])+" "+ty.DuckDB())
		}
		if _, err := db.Exec("CREATE TABLE " + dialect.QuoteIdent("t_"+name) + " (" + strings.Join(defs, ", ") + ")"); err != nil {
			t.Fatal(err)
		}
		for _, r := range tb.Rows {
			vals := make([]string, len(r))
			for i, v := range r {
				vals[i] = "CAST(" + valueSQL(t, decode(t, v), fx.types[i]) + " AS " + fx.types[i].DuckDB() + ")"
			}
			if _, err := db.Exec("INSERT INTO " + dialect.QuoteIdent("t_"+name) + " VALUES (" + strings.Join(vals, ", ") + ")"); err != nil {
				t.Fatalf("insert into %s: %v", name, err)
			}
		}
		out[name] = fx
	}
	return out
}

func decode(t testing.TB, raw json.RawMessage) any {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// valueSQL is a canonical fixture value as a DuckDB literal of dtype ty.
func valueSQL(t testing.TB, v any, ty *Type) string {
	if v == nil {
		return "NULL"
	}
	switch ty.Kind {
	case String:
		return sqlString(v.(string))
	case Boolean:
		return fmt.Sprint(v)
	case Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64:
		return v.(json.Number).String()
	case Float32, Float64, Decimal:
		return "'" + fmt.Sprint(v) + "'"
	case Date:
		return "DATE '" + v.(string) + "'"
	case Datetime:
		if ty.Zone != "" {
			return "TIMESTAMPTZ '" + v.(string) + "+00'"
		}
		return "TIMESTAMP '" + v.(string) + "'"
	case List:
		var parts []string
		for _, e := range v.([]any) {
			parts = append(parts, "CAST("+valueSQL(t, e, ty.Elem)+" AS "+ty.Elem.DuckDB()+")")
		}
		return "[" + strings.Join(parts, ", ") + "]::" + ty.DuckDB()
	case Struct:
		var parts []string
		for i, e := range v.([]any) {
			f := ty.Fields[i]
			parts = append(parts, sqlString(f.Name)+": CAST("+valueSQL(t, e, f.Type)+" AS "+f.Type.DuckDB()+")")
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	t.Fatalf("fixture dtype %s", ty)
	return ""
}

// Outcomes of a step.
const (
	okExact      = "exact"           // Laktory's rows, names and Delta types
	okRefused    = "refused"         // refused at validate where Laktory fails too, or naming what is not supported
	okError      = "error"           // fails at run time where Laktory fails too
	badRuntime   = "RUNTIME-FAILURE" // fails at run time: Laktory fails too, but validate said nothing
	badDifferent = "DIFFERENT"       // another result, or a success where Laktory fails
	badError     = "WRONG-ERROR"     // refused as Polars' (or Laktory's) exception, but not the one Laktory raises
)

// wrongError compares a refusal that says what Polars or Laktory raises
// (ErrPolars) with the exception Laktory raised: its class and message
// (the first line, which the expectations keep). "" when they agree, or
// when the refusal names what is not supported locally.
func wrongError(err error, e *expected) string {
	var fe *sqlfront.Error
	if !errors.Is(err, ErrPolars) || !errors.As(err, &fe) || e.Error == "" {
		return ""
	}
	line1 := func(s string) string { s, _, _ = strings.Cut(s, "\n"); return s }
	if fe.Class == e.Error && line1(fe.Msg) == line1(e.Message) {
		return ""
	}
	return fmt.Sprintf("Laktory raises %s: %s; here %s: %s", e.Error, firstLine(e.Message), fe.Class, firstLine(fe.Msg))
}

// wrongWriteError compares a run failing where delta-rs' write of
// Laktory's frame fails on a value beyond a signed type (an unsigned
// column, which delta-rs writes as the signed type of its width): the
// run's error must say what delta-rs says ("Failed to cast u from Int64
// to UInt64: Can't cast value 18446744073709551615 to type Int64").
func wrongWriteError(err error, e *expected) string {
	const cast = "Cast error: Failed to convert into Arrow schema: Cast error: "
	_, want, ok := strings.Cut(e.WriteMessage, cast)
	if e.WriteError != "DeltaError" || !ok || !strings.Contains(want, "Can't cast value") || strings.Contains(err.Error(), want) {
		return ""
	}
	return fmt.Sprintf("delta-rs fails: %s; here: %s", want, firstLine(err.Error()))
}

type result struct {
	c      *corpusCase
	status string
	detail string
}

// evaluation is a way of running POLARS steps locally: it translates a
// step to DuckDB SQL reading the fixture tables, with the output columns'
// names and the Delta types the sink writes, or refuses it at validate.
type evaluation func(c *corpusCase, fx map[string]*fixture) (query string, err error)

// passThrough is the evaluation POLARS steps had before this package:
// DuckDB's SQL (dialect.DuckDB) for `expr` steps and source filters and
// selects alike.
func passThrough(c *corpusCase, fx map[string]*fixture) (string, error) {
	in := func(ref string) dialect.Input {
		return dialect.Input{Ref: ref, Relation: "t_" + c.inputs[ref], Columns: fx[c.inputs[ref]].cols}
	}
	st := dialect.Step{Kind: dialect.Query, Text: c.sql}
	if c.mode != "query" {
		st.Kind = dialect.Expression
	}
	for ref := range c.inputs {
		st.Inputs = append(st.Inputs, in(ref))
	}
	res, err := dialect.DuckDB{}.Translate(context.Background(), st)
	if err != nil {
		return "", err
	}
	if res.Failed() {
		return "", fmt.Errorf("%s", res.Diagnostics[0].Message)
	}
	from := dialect.QuoteIdent("t_" + c.inputs["df"])
	switch c.mode {
	case "filter":
		return "SELECT * FROM " + from + " WHERE " + res.SQL, nil
	case "select":
		return "SELECT " + res.SQL + " FROM " + from, nil
	}
	return res.SQL, nil
}

// polarsDialect is this package's translation; the sink refuses a dtype
// delta-rs cannot write.
func polarsDialect(c *corpusCase, fx map[string]*fixture) (string, error) {
	if c.mode != "query" {
		fx := fx[c.inputs["df"]]
		var cols []Column
		for i, col := range fx.cols {
			cols = append(cols, Column{Name: col.Name, Type: fx.types[i]})
		}
		x, err := TranslateLaktoryExpr(c.sql, "", cols)
		if err != nil {
			return "", err
		}
		from := dialect.QuoteIdent("t_" + c.inputs["df"])
		if c.mode == "filter" {
			if x.Type.Kind != Boolean || x.Aggregate {
				return "", unsupported(0, "", "a filter of %s", x.Type)
			}
			return sinkTypes("SELECT * FROM "+from+" WHERE "+x.SQL, cols), nil
		}
		if _, err := x.Type.Delta(); err != nil {
			return "", err
		}
		return sinkTypes("SELECT "+x.SQL+" AS "+dialect.QuoteIdent(x.Name)+" FROM "+from, []Column{{Name: x.Name, Type: x.Type}}), nil
	}
	var inputs []Input
	for ref, tb := range c.inputs {
		in := Input{Ref: ref, SQL: dialect.QuoteIdent("t_" + tb)}
		for i, col := range fx[tb].cols {
			in.Schema = append(in.Schema, Column{Name: col.Name, Type: fx[tb].types[i]})
		}
		inputs = append(inputs, in)
	}
	res, err := Translate(c.sql, inputs)
	if err != nil {
		return "", err
	}
	for _, col := range res.Columns {
		if _, err := col.Type.Delta(); err != nil {
			return "", fmt.Errorf("column %s: %w", col.Name, err)
		}
	}
	return res.SQL, nil
}

func TestCorpus(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("SET TimeZone = 'America/St_Johns'"); err != nil {
		t.Fatal(err)
	}
	if err := Install(context.Background(), func(ctx context.Context, s string) error { _, err := db.ExecContext(ctx, s); return err }); err != nil {
		t.Fatal(err)
	}
	fixtures := loadFixtures(t, db)
	cases := readCorpus(t)
	for _, ev := range []struct {
		name   string
		status string
		eval   evaluation
		strict bool // a DIFFERENT outcome fails the test
	}{
		{"before", "testdata/corpus/status-before.txt", passThrough, false},
		{"Polars dialect", "testdata/corpus/status.txt", polarsDialect, true},
	} {
		var results []result
		for _, ce := range cases {
			results = append(results, runCase(t, db, fixtures, ce.c, ce.e, ev.eval))
		}
		checkResults(t, ev.name, ev.status, results, ev.strict)
	}
}

type caseExp struct {
	c *corpusCase
	e *expected
}

func readCorpus(t *testing.T) []caseExp {
	var out []caseExp
	n := 0
	// The held-out part was written, and its expectations computed, before
	// the Polars dialect existed; its figures are reported apart.
	for _, dir := range []string{"testdata/corpus", "testdata/corpus/heldout"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.sql"))
		sort.Strings(files)
		for _, f := range files {
			family := strings.TrimSuffix(filepath.Base(f), ".sql")
			if strings.HasSuffix(dir, "heldout") {
				family = "heldout/" + family
			}
			raw, err := os.ReadFile(strings.TrimSuffix(f, ".sql") + ".expected.json")
			if err != nil {
				t.Fatalf("%s: no expected results (run scripts/polars/corpus.sh): %v", f, err)
			}
			var file struct {
				Cases map[string]*expected `json:"cases"`
			}
			if err := json.Unmarshal(raw, &file); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, c := range readCases(t, f, family) {
				e, ok := file.Cases[c.name]
				if !ok {
					t.Errorf("%s: step %s has no expected result (run scripts/polars/corpus.sh --only %s)", f, c.name, c.name)
					continue
				}
				out = append(out, caseExp{c, e})
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no corpus steps")
	}
	return out
}

var topOrder = regexp.MustCompile(`(?is)\border\s+by\b[^()]*$`)

func runCase(t *testing.T, db *sql.DB, fx map[string]*fixture, c *corpusCase, e *expected, eval evaluation) result {
	res := result{c: c}
	query, err := eval(c, fx)
	if err == nil {
		// What validate binds: DuckDB prepares the query and knows its
		// columns (the schema flow).
		var st *sql.Stmt
		if st, err = db.Prepare(query); err == nil {
			st.Close()
		}
	}
	if err != nil {
		if e.fails() {
			res.status, res.detail = okRefused, err.Error()
			if msg := wrongError(err, e); msg != "" {
				res.status, res.detail = badError, msg
			}
			return res
		}
		// Refusing what Laktory runs is allowed when it names the
		// construct as not supported locally; saying that Polars rejects
		// it is not.
		if errors.Is(err, ErrPolars) {
			res.status, res.detail = badDifferent, "claims Polars rejects what Laktory runs: "+err.Error()
			return res
		}
		res.status, res.detail = okRefused, err.Error()
		return res
	}
	rows, err := db.Query(query)
	var got [][]any
	var names, deltas []string
	if err == nil {
		got, names, deltas, err = scan(rows)
	}
	if err != nil {
		if e.fails() {
			res.status, res.detail = okError, err.Error()
			if msg := wrongWriteError(err, e); msg != "" {
				res.status, res.detail = badError, msg
			}
			return res
		}
		res.status, res.detail = badRuntime, "Laktory succeeds; here: "+err.Error()
		return res
	}
	if e.fails() {
		msg := e.Error + ": " + e.Message
		if e.Error == "" {
			msg = "its sink fails: " + e.WriteError + ": " + e.WriteMessage
		}
		res.status, res.detail = badDifferent, "succeeds where Laktory fails ("+msg+")"
		return res
	}
	var wantNames, wantDeltas []string
	for i, c := range e.Schema {
		wantNames = append(wantNames, c[0])
		wantDeltas = append(wantDeltas, e.Delta[i][1])
	}
	if strings.Join(names, ", ") != strings.Join(wantNames, ", ") {
		res.status, res.detail = badDifferent, fmt.Sprintf("names %v, Laktory %v", names, wantNames)
		return res
	}
	if strings.Join(deltas, ", ") != strings.Join(wantDeltas, ", ") {
		res.status, res.detail = badDifferent, fmt.Sprintf("Delta types %v, Laktory %v", deltas, wantDeltas)
		return res
	}
	var want [][]any
	for _, raw := range e.Rows {
		r := decode(t, raw).([]any)
		for i := range r {
			ty, err := ParseType(e.Schema[i][1])
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			r[i] = canonicalExpected(r[i], ty)
		}
		want = append(want, r)
	}
	if !(c.mode == "query" && topOrder.MatchString(c.sql)) {
		sortRows(got)
		sortRows(want)
	}
	if len(got) != len(want) {
		res.status, res.detail = badDifferent, fmt.Sprintf("%d rows, Laktory %d: %s, want %s", len(got), len(want), show(got), show(want))
		return res
	}
	for i := range got {
		if !sameValue(got[i], want[i]) {
			res.status, res.detail = badDifferent, fmt.Sprintf("row %d: %s, Laktory %s", i, show(got[i:i+1]), show(want[i:i+1]))
			return res
		}
	}
	res.status = okExact
	return res
}

// scan reads the rows of a query in the canonical form, with the Delta
// types the sink writes for its DuckDB types.
func scan(rows *sql.Rows) ([][]any, []string, []string, error) {
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return nil, nil, nil, err
	}
	var names, deltas []string
	for _, ct := range cts {
		names = append(names, ct.Name())
		dt, err := delta.ParseDuckDBType(ct.DatabaseTypeName())
		if err != nil {
			return nil, nil, nil, fmt.Errorf("column %s: the Delta sink cannot write it: %v", ct.Name(), err)
		}
		deltas = append(deltas, dt.TypeName())
	}
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cts))
		ptrs := make([]any, len(cts))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, nil, nil, err
		}
		r := make([]any, len(cts))
		for i, v := range vals {
			r[i] = canonical(v)
		}
		out = append(out, r)
	}
	return out, names, deltas, rows.Err()
}

type floatVal float64

// canonical is a DuckDB value in the corpus's canonical form.
func canonical(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case int8, int16, int32, int64, uint8, uint16, uint32, uint64, int:
		return json.Number(fmt.Sprint(x))
	case *big.Int:
		return json.Number(x.String())
	case float32:
		return floatVal(float64(x))
	case float64:
		return floatVal(x)
	case duckdb.Decimal:
		return decimalText(x.Value, int(x.Scale))
	case time.Time:
		if x.Hour() == 0 && x.Minute() == 0 && x.Second() == 0 && x.Nanosecond() == 0 {
			// DATE and TIMESTAMP values scan alike; the expected side
			// keeps the dtype's form, compared by sameValue.
			return dateOrTime{x.UTC()}
		}
		return x.UTC().Format("2006-01-02 15:04:05.000000")
	case []byte:
		return strings.ToUpper(hex.EncodeToString(x))
	case duckdb.Interval:
		return strconv.FormatInt(int64(x.Days)*86400e6+x.Micros, 10)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = canonical(e)
		}
		return out
	case map[string]any:
		// Struct fields in declaration order are not kept by the map:
		// compare them sorted by name on both sides.
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make([]any, len(keys))
		for i, k := range keys {
			out[i] = canonical(x[k])
		}
		return structVal(out)
	}
	return v
}

type structVal []any

// dateOrTime is a midnight value: it equals a date or a timestamp at
// midnight.
type dateOrTime struct{ t time.Time }

// canonicalExpected is an expected value of dtype ty in the form
// canonical gives the local side (floats as floatVal).
func canonicalExpected(v any, ty *Type) any {
	switch x := v.(type) {
	case string:
		if ty.Kind == Float32 || ty.Kind == Float64 {
			switch x {
			case "NaN":
				return floatVal(math.NaN())
			case "inf":
				return floatVal(math.Inf(1))
			case "-inf":
				return floatVal(math.Inf(-1))
			}
			f, _ := strconv.ParseFloat(x, 64)
			return floatVal(f)
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			et := ty.Elem
			if ty.Kind == Struct {
				et = ty.Fields[i].Type
			}
			if et == nil {
				et = &Type{Kind: Null}
			}
			out[i] = canonicalExpected(e, et)
		}
		return out
	}
	return v
}

func rowKey(v any) string {
	switch x := v.(type) {
	case floatVal:
		return strconv.FormatFloat(float64(x), 'g', 9, 64)
	case dateOrTime:
		return x.t.Format("2006-01-02")
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = rowKey(e)
		}
		return "[" + strings.Join(parts, "|") + "]"
	case structVal:
		return rowKey([]any(x))
	case nil:
		return "∅"
	}
	return fmt.Sprint(v)
}

func sameValue(a, b any) bool {
	switch x := a.(type) {
	case floatVal:
		y, ok := b.(floatVal)
		if !ok {
			return false
		}
		fx, fy := float64(x), float64(y)
		if math.IsNaN(fx) || math.IsNaN(fy) {
			return math.IsNaN(fx) && math.IsNaN(fy)
		}
		return fx == fy || math.Abs(fx-fy) <= 1e-12*math.Max(math.Abs(fx), math.Abs(fy))
	case dateOrTime:
		s := fmt.Sprint(b)
		return s == x.t.Format("2006-01-02") || s == x.t.Format("2006-01-02 15:04:05.000000")
	case structVal:
		// The expected side lists fields in declaration order; compare as
		// multisets of canonical values.
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		ks := make([]string, len(y))
		for i := range y {
			ks[i] = rowKey(y[i])
		}
		sort.Strings(ks)
		xs := make([]string, len(x))
		for i := range x {
			xs[i] = rowKey(x[i])
		}
		sort.Strings(xs)
		return strings.Join(ks, "|") == strings.Join(xs, "|")
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return fmt.Sprint(a) == fmt.Sprint(b)
}

func sortRows(rs [][]any) {
	sort.SliceStable(rs, func(i, j int) bool { return rowKey([]any(rs[i])) < rowKey([]any(rs[j])) })
}

func show(rs [][]any) string {
	b, _ := json.Marshal(rs)
	return string(b)
}

func checkResults(t *testing.T, name, path string, results []result, strict bool) {
	type tally struct{ n, exact, refused, errs, runtime, different, wrong int }
	byFam := map[string]*tally{}
	var lines []string
	for _, r := range results {
		tl := byFam[r.c.file]
		if tl == nil {
			tl = &tally{}
			byFam[r.c.file] = tl
		}
		tl.n++
		switch r.status {
		case okExact:
			tl.exact++
		case okRefused:
			tl.refused++
		case okError:
			tl.errs++
		case badRuntime:
			tl.runtime++
		case badDifferent:
			tl.different++
			if strict {
				t.Errorf("%s/%s: a different result from Laktory's: %s", r.c.file, r.c.name, r.detail)
			}
		case badError:
			tl.wrong++
			if strict {
				t.Errorf("%s/%s: another error than Laktory's: %s", r.c.file, r.c.name, r.detail)
			}
		}
		line := fmt.Sprintf("%-22s %-32s %s", r.c.file, r.c.name, r.status)
		if r.status != okExact {
			line += "  " + firstLine(r.detail)
		}
		lines = append(lines, line)
	}
	var fams []string
	for k := range byFam {
		fams = append(fams, k)
	}
	sort.Strings(fams)
	summary := []string{fmt.Sprintf("# Polars corpus outcomes, %s (go test ./runner/polarssql -run TestCorpus -update)", name), "#",
		"# family                 steps  exact  refused  error  runtime-fail  DIFFERENT  WRONG-ERROR",
		"# (error: fails at run time as Laktory does; runtime-fail: fails at run time where Laktory succeeds;",
		"# WRONG-ERROR: refused as Polars' or Laktory's exception, but another class or message than Laktory's)", "#"}
	var dev, held tally
	for _, k := range fams {
		c := byFam[k]
		summary = append(summary, fmt.Sprintf("# %-22s %5d  %5d  %7d  %5d  %12d  %9d  %11d", k, c.n, c.exact, c.refused, c.errs, c.runtime, c.different, c.wrong))
		acc := &dev
		if strings.HasPrefix(k, "heldout/") {
			acc = &held
		}
		acc.n += c.n
		acc.exact += c.exact
		acc.refused += c.refused
		acc.errs += c.errs
		acc.runtime += c.runtime
		acc.different += c.different
		acc.wrong += c.wrong
	}
	for _, x := range []struct {
		name string
		c    tally
	}{{"total (development)", dev}, {"total (held out)", held}} {
		summary = append(summary, fmt.Sprintf("# %-22s %5d  %5d  %7d  %5d  %12d  %9d  %11d", x.name, x.c.n, x.c.exact, x.c.refused, x.c.errs, x.c.runtime, x.c.different, x.c.wrong))
	}
	content := strings.Join(append(append(summary, "#"), lines...), "\n") + "\n"
	for _, s := range summary[6:] {
		t.Log(s)
	}
	if *update {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(path)
	if err != nil || string(old) != content {
		t.Errorf("%s is not current: run go test ./runner/polarssql -run TestCorpus -update and read the diff", path)
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}
