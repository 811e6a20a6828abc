package sparksql

import (
	"context"
	"database/sql"
	"strings"
	"testing"
)

// TestRoundDoubleFastPath: spark_round_double's arithmetic path rounds a
// double as the decimal text path does (Spark's BigDecimal of the
// shortest text, half up), bit for bit and with the sign of zero, for
// the values that take it and those left to the text (halves, products
// too large, negative or large scales); and a few of Spark's own results.
func TestRoundDoubleFastPath(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	if err := installTest(ctx, db); err != nil {
		t.Fatal(err)
	}
	const text = "CAST(round(CAST(CAST(x AS VARCHAR) AS DECIMAL(38,18)), D) AS DOUBLE)"
	values := "SELECT ((i * 7919) % 50000 + 10000) / 100.0 * ((i * 13) % 50) AS x FROM range(3000) r(i) " +
		"UNION ALL SELECT ((hash(i) % 2000000)::BIGINT - 1000000) / 1000.0 * pow(10, (hash(i * 7) % 24)::INT - 12) FROM range(3000) r(i) " +
		"UNION ALL SELECT i / 1000.0 + 0.005 FROM range(-1500, 1500) r(i) " +
		"UNION ALL SELECT i * 0.5 FROM range(-100, 100) r(i) " +
		"UNION ALL SELECT i * 0.05 FROM range(-100, 100) r(i) " +
		"UNION ALL SELECT * FROM (VALUES (2.675), (-2.675), (-0.4), (-0.0), (0.0), (1.005), (1e14 + 0.5), (999999999999999.9), " +
		"(123456789.125), (-1.5), (2.5), (0.285), (1.0000000000000002), (4.35), (-4.35), (1e-300), (-1e-300), (5e-324))"
	for _, d := range []string{"0", "1", "2", "3", "5", "8", "11", "15", "16"} {
		q := "SELECT count(*) FILTER (WHERE a IS DISTINCT FROM b), any_value(x::VARCHAR || ': ' || a || ' vs ' || b) FILTER (WHERE a IS DISTINCT FROM b) " +
			"FROM (SELECT x, spark_round_double(x, D)::VARCHAR AS a, (" + text + ")::VARCHAR AS b FROM (" + values + "))"
		var bad int
		var eg sql.NullString
		if err := db.QueryRowContext(ctx, strings.ReplaceAll(q, "D)", d+")")).Scan(&bad, &eg); err != nil {
			t.Fatal(err)
		}
		if bad > 0 {
			t.Errorf("round(x, %s): %d values differ from the text path, e.g. %s", d, bad, eg.String)
		}
	}
	for _, c := range []struct{ x, d, want string }{
		{"2.675", "2", "2.68"}, {"-2.675", "2", "-2.68"}, {"-2.5", "0", "-3.0"}, {"2.5", "0", "3.0"},
		{"-0.4", "0", "0.0"}, {"1.005", "2", "1.01"}, {"0.285", "2", "0.29"}, {"123.456", "1", "123.5"},
	} {
		var got string
		if err := db.QueryRowContext(ctx, "SELECT spark_round_double("+c.x+"::DOUBLE, "+c.d+")::VARCHAR").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("round(%s, %s) = %s, Spark gives %s", c.x, c.d, got, c.want)
		}
	}
}

// TestUpperASCII: spark_upper of ASCII text is DuckDB's upper (no
// character of casemap_gen.go is ASCII), and text with such a character
// still gets Spark's mapping.
func TestUpperASCII(t *testing.T) {
	for k := range caseUpper {
		for _, r := range k {
			if r < 0x80 {
				t.Fatalf("casemap_gen.go maps ASCII %q: spark_upper's ASCII path would miss it", k)
			}
		}
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	if err := installTest(ctx, db); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{{"'abc-Z1'", "ABC-Z1"}, {"''", ""}, {"'straße'", "STRASSE"}, {"'éa'", "ÉA"}} {
		var got string
		if err := db.QueryRowContext(ctx, "SELECT spark_upper("+c.in+")").Scan(&got); err != nil || got != c.want {
			t.Errorf("upper(%s) = %q %v, want %q", c.in, got, err, c.want)
		}
	}
}

// TestIntegralTextFastPath: spark_integral_text skips its regular
// expression for DuckDB's rendering of a BIGINT and gives what the
// expression alone gives on every text: signs, blanks, leading zeros,
// overflow, decimals, exponents, letters, empty and NULL.
func TestIntegralTextFastPath(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	if err := installTest(ctx, db); err != nil {
		t.Fatal(err)
	}
	var def string
	if err := db.QueryRowContext(ctx, "SELECT macro_definition FROM duckdb_functions() WHERE function_name = 'spark_integral_text'").Scan(&def); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(def, "TRY_CAST") {
		t.Fatalf("spark_integral_text has no fast path: %s", def)
	}
	texts := "SELECT CAST(i AS VARCHAR) AS s FROM range(-2000, 2000) r(i) UNION ALL SELECT * FROM (VALUES ('+5'), ('-0'), ('007'), (' 5'), ('5 '), " +
		"(E'\\t5\\n'), ('9223372036854775807'), ('9223372036854775808'), ('-9223372036854775808'), ('-9223372036854775809'), " +
		"('99999999999999999999999'), ('1.0'), ('1e3'), ('0x1F'), ('1_000'), ('five'), (''), (' '), ('-'), ('+'), ('--1'), ('٣'), (NULL))"
	var differ, total int
	q := "SELECT count(*) FILTER (WHERE spark_integral_text(s) IS DISTINCT FROM (CASE WHEN regexp_full_match(s, " + sqlq(ws+`*`+reIntegral+ws+`*`) + ") THEN s END)), count(*) FROM (" + texts + ")"
	if err := db.QueryRowContext(ctx, q).Scan(&differ, &total); err != nil {
		t.Fatal(err)
	}
	if differ != 0 || total < 4000 {
		t.Errorf("spark_integral_text differs from its expression on %d of %d texts", differ, total)
	}
}

// TestTimestampUTCFastPath: spark_try_str_to_timestamp of the canonical
// text in UTC takes the wall clock's microseconds (no text appended, no
// zone parsed) and gives the instants the text with a +00 offset gives:
// every hour and minute, leap days, the first and last years, invalid
// dates and times (NULL), the space and the T.
func TestTimestampUTCFastPath(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx := context.Background()
	if err := installTest(ctx, db); err != nil {
		t.Fatal(err)
	}
	var def string
	if err := db.QueryRowContext(ctx, "SELECT macro_definition FROM duckdb_functions() WHERE function_name = 'spark_try_str_to_timestamp'").Scan(&def); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(def, "'+00'") || !strings.Contains(def, "make_timestamptz") {
		t.Fatalf("spark_try_str_to_timestamp parses a zone in UTC: %s", def)
	}
	texts := "SELECT strftime(TIMESTAMP '2024-02-27 00:00:00' + INTERVAL (i * 997) SECOND, '%Y-%m-%dT%H:%M:%S') AS s FROM range(20000) r(i) " +
		"UNION ALL SELECT strftime(TIMESTAMP '1969-12-31 23:00:00' + INTERVAL (i * 61) SECOND, '%Y-%m-%d %H:%M:%S') FROM range(3000) r(i) " +
		"UNION ALL SELECT * FROM (VALUES ('0001-01-01T00:00:00'), ('9999-12-31T23:59:59'), ('2023-02-29T10:00:00'), ('2024-02-29 10:00:00'), " +
		"('2024-13-01T00:00:00'), ('2024-04-31T00:00:00'), ('2024-01-01T23:59:59'), ('1900-02-29T00:00:00'), ('2000-02-29T12:30:45'))"
	var differ, total int
	q := "SELECT count(*) FILTER (WHERE spark_try_str_to_timestamp(s, 'UTC') IS DISTINCT FROM TRY_CAST(s || '+00' AS TIMESTAMPTZ)), count(*) FROM (" + texts + ")"
	if err := db.QueryRowContext(ctx, q).Scan(&differ, &total); err != nil {
		t.Fatal(err)
	}
	if differ != 0 || total < 23000 {
		t.Errorf("spark_try_str_to_timestamp in UTC differs from the text with +00 on %d of %d texts", differ, total)
	}
}
