package local

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSparkJSONFunctions checks spark_get_json_object, spark_json_read and
// spark_json_pretty through DuckDB (package jackson holds the comparison
// with Spark 4.2): NULL in, NULL out; text whose reading is not
// reproduced stops the query with LOCALLY_UNSUPPORTED.JSON_TEXT.
func TestSparkJSONFunctions(t *testing.T) {
	ctx := context.Background()
	db, err := OpenDB(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tt := range []struct {
		expr string
		want sql.NullString
	}{
		{`spark_get_json_object('{"a":[{"b":1},{"b":2}]}', '$.a[*].b')`, valid("[1,2]")},
		{`spark_get_json_object('{"a":["x"]}', '$.a[*]')`, valid(`"x"`)},
		{`spark_get_json_object('{"a":1}', 'a')`, sql.NullString{}},
		{`spark_get_json_object(NULL, '$.a')`, sql.NullString{}},
		{`spark_get_json_object('{"a":1}', NULL)`, sql.NullString{}},
		{`spark_json_read('{a: 1 /* c */}', 'cu')`, valid(`{"a":1}`)},
		{`spark_json_read('{a: 1}', 'q')`, valid("!")},
		{`spark_json_read('{''a'': ''x''}', 'q')`, valid(`{"a":"x"}`)},
		{`spark_json_read('  ', 'q')`, sql.NullString{}},
		{`spark_json_read(NULL, 'q')`, sql.NullString{}},
		{`spark_json_pretty('{"a":[1,2]}')`, valid("{\n  \"a\" : [ 1, 2 ]\n}")},
	} {
		var got sql.NullString
		if err := db.QueryRowContext(ctx, "SELECT "+tt.expr).Scan(&got); err != nil {
			t.Errorf("%s: %v", tt.expr, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s = %v, want %v", tt.expr, got, tt.want)
		}
	}
	for _, expr := range []string{
		`spark_json_read('{"a":1,"a":2}', 'q')`,
		`spark_get_json_object('{"a":[1e400]}', '$.a')`,
	} {
		var got sql.NullString
		err := db.QueryRowContext(ctx, "SELECT "+expr).Scan(&got)
		if err == nil || !strings.Contains(err.Error(), "[LOCALLY_UNSUPPORTED.JSON_TEXT]") {
			t.Errorf("%s: %v, want LOCALLY_UNSUPPORTED.JSON_TEXT", expr, err)
		} else {
			t.Log(err)
		}
	}
}

// TestSparkJSONPathCache: a path computed per row is evaluated per row,
// and the parsed paths kept stay bounded (maxJSONPaths), however many
// distinct paths a column holds; a text cut short in an error stays
// UTF-8.
func TestSparkJSONPathCache(t *testing.T) {
	ctx := context.Background()
	db, err := OpenDB(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const n = 3 * maxJSONPaths
	var hits, sum int64
	err = db.QueryRowContext(ctx, `SELECT count(v), sum(CAST(v AS BIGINT)) FROM (
		SELECT spark_get_json_object('{"k' || (i % 7) || '":' || i || '}', '$.k' || i) AS v FROM range(`+strconv.Itoa(n)+`) t(i))`).Scan(&hits, &sum)
	if err != nil {
		t.Fatal(err)
	}
	// Row i finds its key where i < 7 (key k<i%7> is k<i> only then).
	if hits != 7 || sum != 21 {
		t.Errorf("%d rows found, sum %d, want 7 and 21", hits, sum)
	}
	kept := 0
	jsonPaths.Range(func(_, _ any) bool { kept++; return true })
	if kept > maxJSONPaths {
		t.Errorf("%d parsed paths kept, want at most %d", kept, maxJSONPaths)
	}
	err = db.QueryRowContext(ctx, `SELECT spark_json_read('{"a":1,"a":2,"ss":"`+strings.Repeat("é", 40)+`"}', 'q')`).Scan(new(sql.NullString))
	if err == nil || !utf8.ValidString(err.Error()) {
		t.Errorf("error %q: want an error in valid UTF-8", err)
	}
}
