package polarssql

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/sqlfront"
)

func mustType(t *testing.T, s string) *Type {
	t.Helper()
	ty, err := ParseType(s)
	if err != nil {
		t.Fatal(err)
	}
	return ty
}

// Names and dtypes as polars 1.32.0 gives them, and the classes of what
// it refuses, without DuckDB.
func TestTranslateNamesAndTypes(t *testing.T) {
	in := []Input{{Ref: "df", SQL: `"t"`, Schema: []Column{
		{"id", mustType(t, "Int64")}, {"i", mustType(t, "Int32")}, {"b", mustType(t, "Int8")}, {"s", mustType(t, "Int16")},
		{"u", mustType(t, "UInt32")}, {"f", mustType(t, "Float32")}, {"d", mustType(t, "Float64")}, {"str", mustType(t, "String")},
	}}}
	for _, tc := range []struct {
		sql  string
		want string // name:dtype, ... or error text
	}{
		{"SELECT id, d * 2 FROM {df}", "id:Int64, d:Float64"},
		{"SELECT 2 * d FROM {df}", "literal:Float64"},
		{"SELECT 7 / 2 AS x, 2.0 * 3 AS y FROM {df}", "x:Int32, y:Float64"},
		{"SELECT b + s AS a, s * i AS c, u + 1 AS e, u - i AS g FROM {df}", "a:Int16, c:Int32, e:UInt32, g:Int64"},
		{"SELECT f + b AS a, f + i AS c, f * 2.0 AS e FROM {df}", "a:Float32, c:Float64, e:Float32"},
		{"SELECT COUNT(*), COUNT(d), SUM(b), SUM(i), AVG(i), MIN(str) FROM {df}", "error DuplicateError"},
		{"SELECT COUNT(*), SUM(b), SUM(i) AS si, AVG(i) AS a FROM {df}", "len:UInt32, b:Int64, si:Int32, a:Float64"},
		{"SELECT UPPER(str), LENGTH(str) AS n FROM {df}", "str:String, n:UInt32"},
		{"SELECT COALESCE(i, 0), NULLIF(i, 0) FROM {df}", "i:Int32, literal:Int32"},
		{"SELECT CASE WHEN d > 1 THEN str ELSE 'z' END FROM {df}", "str:String"},
		{"SELECT CASE WHEN d > 1 THEN 1 ELSE 2.5 END AS c FROM {df}", "c:Float64"},
		{"SELECT b + 1000 AS a, s * 100000 AS c, i + 3000000000 AS e, u + -1 AS g, u + 5000000000 AS h, u - 1 AS k FROM {df}", "a:Int16, c:Int32, e:Int64, g:Int64, h:UInt64, k:UInt32"},
		{"SELECT COALESCE(b, -200) AS a, COALESCE(b, 1, 1000) AS c, CASE WHEN d > 1 THEN b ELSE 100000 END AS e FROM {df}", "a:Int16, c:Int16, e:Int32"},
		{"SELECT COALESCE(i, 'none') AS a, CASE WHEN d > 1 THEN d ELSE 'neg' END AS c, CASE WHEN d > 1 THEN d > 2 ELSE 0 END AS e FROM {df}", "a:String, c:String, e:Int32"},
		{"SELECT STRPTIME(str, '%d %b %Y %I:%M %p') AS a, STRPTIME(str, '%FT%T%z') AS z, DATE(str, '%Y-%j') AS j, DATE(str, '%A, %B %d %Y') AS w FROM {df}", "a:Datetime(us), z:Datetime(us,UTC), j:Date, w:Date"},
		{"SELECT STRPTIME(str, '%Y-%m-%d %H:%M %p') AS a FROM {df}", "error ComputeError"},
		{"SELECT STRPTIME(str, '%Y-%m-%d %H:%M%z:%S') AS a FROM {df}", "a:Datetime(us,UTC)"},
		{"SELECT DATE(str, '%Y-%m-%d %H:%M%z') AS a FROM {df}", "unsupported DATE with the format '%Y-%m-%d %H:%M%z' (an offset"},
		{"SELECT DATE(str, '%d %Bx %Y') AS a FROM {df}", "unsupported DATE with the format '%d %Bx %Y' (a letter after a long name"},
		{"SELECT DATE(str, '%Y-%j-%d') AS a FROM {df}", "unsupported DATE with the format '%Y-%j-%d' (%j with a month or a day"},
		{"SELECT CAST(d AS INT) AS a, CAST(i AS FLOAT) AS c, d::int AS e, CAST(i AS REAL) AS g FROM {df}", "a:Int32, c:Float64, e:Int32, g:Float32"},
		{"SELECT ID FROM {df}", "error ColumnNotFoundError"},
		{"SELECT '1' + id FROM {df}", "error InvalidOperationError"},
		{"SELECT * FROM {df} a JOIN {df} b ON a.id = b.id", "id:Int64, i:Int32, b:Int8, s:Int16, u:UInt32, f:Float32, d:Float64, str:String, id:b:Int64, i:b:Int32, b:b:Int8, s:b:Int16, u:b:UInt32, f:b:Float32, d:b:Float64, str:b:String"},
		{"SELECT a.id, b.id FROM {df} a JOIN {df} b ON a.id = b.id", "error DuplicateError"},
		{"SELECT id FROM {df} GROUP BY id HAVING COUNT(*) > 1", "unsupported HAVING"},
		{"SELECT SUM(id) OVER (PARTITION BY i) AS x, COUNT(*) OVER (PARTITION BY i) FROM {df}", "x:Int64, len:UInt32"},
		{"SELECT SUM(id) OVER (PARTITION BY i ORDER BY id) AS x FROM {df}", "unsupported a window's ORDER BY"},
		{"SELECT MAX(id) OVER () AS x FROM {df}", "error ComputeError"},
		{"SELECT MEDIAN(i) OVER (PARTITION BY s) AS m, MEDIAN(f) OVER (PARTITION BY s) AS n, AVG(f) OVER (PARTITION BY s) AS a FROM {df}", "m:Float64, n:Float32, a:Float32"},
		{"SELECT AVG(f) AS a, MEDIAN(f) AS m, STDDEV(f) AS sd, VARIANCE(b) AS v FROM {df}", "a:Float32, m:Float32, sd:Float32, v:Float64"},
		{"SELECT DEGREES(f) AS g, RADIANS(f) AS r FROM {df}", "g:Float32, r:Float32"},
		{"SELECT LN(f) AS l FROM {df}", "unsupported LN of Float32"},
		{"SELECT d * 1e3 AS x FROM {df}", "error SQLInterfaceError"},
		{"SELECT d * 1.5e3 AS x, CONCAT(str, i, d) AS c, CONCAT_WS('-', i, str) AS w FROM {df}", "x:Float64, c:String, w:String"},
		{"SELECT CONCAT_WS(str, i) AS w FROM {df}", "error SQLSyntaxError"},
		{"SELECT ROW_NUMBER() OVER (PARTITION BY i) AS x FROM {df}", "error SQLInterfaceError"},
		{"SELECT EXTRACT(YEAR FROM d) AS y FROM {df}", "unsupported EXTRACT"},
		{"SELECT str ~ 'a', str !~* 'b' AS n, REGEXP_LIKE(str, 'c', 'i') AS r FROM {df}", "str:Boolean, n:Boolean, r:Boolean"},
		{"SELECT str ~ str FROM {df}", "error SQLSyntaxError"},
		{"SELECT REGEXP_LIKE(str, 'c', 'q') AS r FROM {df}", "error ComputeError"},
		{"SELECT TRIM(str), INITCAP(str) AS t, REVERSE(str) AS r, SPLIT_PART(str, ',', 2) AS p FROM {df}", "str:String, t:String, r:String, p:String"},
		{"SELECT TRIM(str, 'x') FROM {df}", "error SQLSyntaxError"},
		{"SELECT TRIM(LEADING FROM str) FROM {df}", "error SQLInterfaceError"},
		{"SELECT CAST(str AS INT) AS a, CAST(d AS VARCHAR) AS c, TRY_CAST(str AS DOUBLE) AS e, CAST(str AS DECIMAL(10,2)) AS g, CAST(i AS DECIMAL) AS h FROM {df}", "a:Int32, c:String, e:Float64, g:Decimal(10,2), h:Decimal(38,9)"},
		{"SELECT CAST(str AS BOOLEAN) AS b FROM {df}", "error InvalidOperationError"},
		{"SELECT CAST(i AS DECIMAL(10,3)) * i AS a, CAST(i AS DECIMAL(10,3)) / 2 AS c, CAST(i AS DECIMAL(10,3)) + 1.5 AS e, CAST(i AS DECIMAL(10,3)) + d AS g FROM {df}", "a:Decimal(None,6), c:Decimal(None,7), e:Decimal(None,3), g:Float64"},
		{"SELECT CAST(i AS DECIMAL(10,3)) % 2 AS m FROM {df}", "error InvalidOperationError"},
		{"SELECT SUM(CAST(i AS DECIMAL(10,3))) AS s, MAX(ROUND(CAST(i AS DECIMAL(10,3)), 1)) AS r FROM {df} GROUP BY i", "s:Decimal(10,3), r:Decimal(10,3)"},
		{"SELECT CAST(i AS DATE) + INTERVAL '1 month' AS m, TIMESTAMP '2024-01-01 00:00:00' - INTERVAL '1 day' AS t FROM {df}", "m:Date, t:Datetime(us)"},
		{"SELECT CAST(i AS DATE) - CAST(i AS DATE) AS d FROM {df}", "d:Duration(ms)"},
		{"SELECT CAST(i AS DATE) + 1 AS d FROM {df}", "error InvalidOperationError"},
		{"SELECT TIMESTAMP '2024-01-01 00:00:00' + INTERVAL '-1 day' AS d FROM {df}", "error SQLInterfaceError"},
	} {
		res, err := Translate(tc.sql, in)
		var got string
		switch {
		case err != nil:
			var fe *sqlfront.Error
			if !errors.As(err, &fe) {
				t.Errorf("%s: %v is not a positioned error", tc.sql, err)
				continue
			}
			if errors.Is(err, ErrPolars) {
				got = "error " + fe.Class
			} else {
				got = "unsupported " + fe.Msg
			}
		default:
			var parts []string
			for _, c := range res.Columns {
				parts = append(parts, c.Name+":"+c.Type.String())
			}
			got = strings.Join(parts, ", ")
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s:\n got  %s\n want %s", tc.sql, got, tc.want)
		}
	}
}

// Every dtype maps to the Delta type delta-rs writes, or says it cannot.
func TestDeltaTypes(t *testing.T) {
	for _, tc := range []struct{ dtype, delta string }{
		{"Int8", "byte"}, {"UInt8", "byte"}, {"Int16", "short"}, {"UInt16", "short"}, {"Int32", "integer"}, {"UInt32", "integer"},
		{"Int64", "long"}, {"UInt64", "long"}, {"Float32", "float"}, {"Float64", "double"}, {"Decimal(10,2)", "decimal(10,2)"},
		{"Decimal(None,4)", "decimal(38,4)"}, {"String", "string"}, {"Boolean", "boolean"}, {"Binary", "binary"}, {"Date", "date"},
		{"Datetime(us)", "timestamp_ntz"}, {"Datetime(ns)", "timestamp_ntz"}, {"Datetime(us,UTC)", "timestamp"},
		{"List(String)", "array<string>"}, {"Struct(a:Int64,b:List(Date))", "struct<a:long,b:array<date>>"},
		{"Null", "error"}, {"Duration(ms)", "error"}, {"Time", "error"},
	} {
		ty := mustType(t, tc.dtype)
		if ty.String() != tc.dtype {
			t.Errorf("%s prints as %s", tc.dtype, ty)
		}
		got, err := ty.Delta()
		if err != nil {
			got = "error"
		}
		if got != tc.delta {
			t.Errorf("%s: Delta type %s, want %s", tc.dtype, got, tc.delta)
		}
	}
}

// The seam adapter: a query translates, an unknown column is a rejection
// at its offset, a Null column is refused for the sink, expressions wait.
func TestTranslatorSeam(t *testing.T) {
	in := []dialect.Input{{Ref: "df", Relation: "v", Columns: []dialect.Column{{Name: "id", Type: "BIGINT"}, {Name: "u", Type: "UINTEGER"}, {Name: "ts", Type: "TIMESTAMP WITH TIME ZONE"}, {Name: "xs", Type: "VARCHAR[]"}}}}
	for _, tc := range []struct {
		kind     dialect.Kind
		text     string
		ok       bool
		rejected bool
		off      int
	}{
		{dialect.Query, "SELECT id, u + 1 AS v FROM {df}", true, false, 0},
		{dialect.Query, "SELECT ID FROM {df}", false, true, 7},
		{dialect.Query, "SELECT NULL AS x FROM {df}", false, false, -1},
		// polars' sql_expr (a `where`): Polars SQL, case-sensitive names.
		{dialect.Expression, "id > 1 AND u IN (1, 2)", true, false, 0},
		{dialect.Expression, "ID > 1", false, true, 0},
		// Laktory's own parser (filter, selects, expectations): far less.
		{dialect.LaktoryExpression, "id > 1 AND u IS NOT NULL", true, false, 0},
		{dialect.LaktoryExpression, "COUNT(id) > 1", true, false, 0},
		{dialect.LaktoryExpression, "id IN (1, 2)", false, true, 3},
		{dialect.LaktoryExpression, "COUNT(*) > 1", false, true, 0},
	} {
		res, err := Translator{}.Translate(context.Background(), dialect.Step{Kind: tc.kind, Text: tc.text, Inputs: in})
		if err != nil {
			t.Fatal(err)
		}
		if res.Failed() == tc.ok {
			t.Errorf("%s: failed=%v: %+v", tc.text, res.Failed(), res.Diagnostics)
			continue
		}
		if !tc.ok && (res.Diagnostics[0].Rejected != tc.rejected || res.Diagnostics[0].Offset != tc.off) {
			t.Errorf("%s: %+v", tc.text, res.Diagnostics[0])
		}
		if tc.ok && tc.kind != dialect.Query && res.Name != "id" {
			t.Errorf("%s: named %q, want id (polars names an expression after its leftmost column)", tc.text, res.Name)
		}
	}
	for _, s := range []string{"BIGINT", "UINTEGER", "DECIMAL(10,2)", "TIMESTAMP WITH TIME ZONE", "VARCHAR[]", "TIMESTAMP_NS",
		`STRUCT("y" BIGINT, "X y" VARCHAR, "q""" STRUCT("a" DECIMAL(10,2), "b" INTEGER[]))`} {
		ty, err := FromDuckDB(s)
		if err != nil {
			t.Fatal(err)
		}
		if back := ty.DuckDB(); back != strings.ReplaceAll(s, "TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ") {
			t.Errorf("%s -> %s -> %s", s, ty, back)
		}
	}
	// DESCRIBE leaves plain field names bare.
	if ty, err := FromDuckDB("STRUCT(y BIGINT, x VARCHAR)"); err != nil || ty.String() != "Struct(y:Int64,x:String)" {
		t.Errorf("STRUCT(y BIGINT, x VARCHAR): %v, %v", ty, err)
	}
}

// TestTranslatorInputs: a struct column's field is s.f where no relation
// is named s (as polars resolves it); columns DuckDB's readers type JSON
// (a key null in every object: polars' Null) or HUGEINT (integers of both
// signs: polars' Int64) are cast to the dtype's own DuckDB type.
func TestTranslatorInputs(t *testing.T) {
	in := []dialect.Input{{Ref: "df", Relation: "v", Columns: []dialect.Column{{Name: "s", Type: "STRUCT(f VARCHAR, g BIGINT)"}, {Name: "j", Type: "JSON"}, {Name: "h", Type: "HUGEINT"}}}}
	tr := func(text string) dialect.Result {
		res, err := Translator{}.Translate(context.Background(), dialect.Step{Kind: dialect.Query, Text: text, Inputs: in})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := tr("SELECT s.f, s.g + 1 AS g, h FROM {df}")
	if res.Failed() {
		t.Fatalf("%+v", res.Diagnostics)
	}
	for _, want := range []string{`(t1."s")."f"`, `CAST("j" AS INTEGER) AS "j"`, `CAST("h" AS BIGINT) AS "h"`, `AS "f"`} {
		if !strings.Contains(res.SQL, want) {
			t.Errorf("%s lacks %s", res.SQL, want)
		}
	}
	res = tr("SELECT s.x FROM {df}")
	if !res.Failed() || !res.Diagnostics[0].Rejected || !strings.Contains(res.Diagnostics[0].Message, "StructFieldNotFoundError") {
		t.Errorf("s.x: %+v", res.Diagnostics)
	}
}
