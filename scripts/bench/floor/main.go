// Command floor times what DuckDB itself does for a pipeline, the floors of
// scripts/bench/pipeline_vs_laktory.sh: the read alone (every column of
// every row parsed, nothing written) and COPY (query) TO a Parquet file
// (snappy, DuckDB's defaults), in the product's DuckDB (delta.OpenDuckDB).
// It prints one JSON line: wall and CPU seconds (this process, all
// threads) of each, and the bytes COPY wrote. -options replaces COPY's
// options after FORMAT parquet (the codec, the dictionary and row group
// sizes: what the floor costs with other settings), -threads sets
// DuckDB's threads, -macros installs the functions and macros of the
// dialects (the engine's, as laktory run has them: -query can then be the
// SQL a POLARS or PYSPARK step translates to, the floor of our own run).
//
//	go run ./scripts/bench/floor -read "read_json([...])" -query "SELECT ..." -out DIR
//	go run ./scripts/bench/floor ... -options "COMPRESSION zstd, COMPRESSION_LEVEL 1" -threads 1
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/runner/polarssql"
	"github.com/laktory/workbench/runner/sparksql"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	read := flag.String("read", "", "the read (a DuckDB table function call)")
	query := flag.String("query", "", "the query COPY writes")
	out := flag.String("out", "", "a folder to create, for COPY's file")
	options := flag.String("options", "COMPRESSION snappy", "COPY's options after FORMAT parquet")
	threads := flag.Int("threads", 0, "DuckDB's threads (0: its default, the cores)")
	macros := flag.Bool("macros", false, "install the dialects' functions and macros (as laktory run does)")
	flag.Parse()
	if *read == "" || *query == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: floor -read READ -query QUERY -out DIR")
		os.Exit(2)
	}
	ctx := context.Background()
	db, err := delta.OpenDuckDB(ctx)
	if err != nil {
		fail(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // SET threads is global; one connection runs everything
	if *threads > 0 {
		if _, err := db.ExecContext(ctx, "SET threads = "+fmt.Sprint(*threads)); err != nil {
			fail(err)
		}
	}
	if *macros {
		exec := func(ctx context.Context, s string) error { _, err := db.ExecContext(ctx, s); return err }
		if err := local.RegisterFunctions(ctx, db); err != nil {
			fail(err)
		}
		for _, install := range []func(context.Context, func(context.Context, string) error) error{sparksql.Install, polarssql.Install} {
			if err := install(ctx, exec); err != nil {
				fail(err)
			}
		}
	}
	res := map[string]float64{}
	timed := func(name, stmt string) {
		c0, t0 := cpu(), time.Now()
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			fail(fmt.Errorf("%s: %w", name, err))
		}
		res[name+"_wall"], res[name+"_cpu"] = time.Since(t0).Seconds(), (cpu() - c0).Seconds()
	}
	// min() of every column: each value parsed, one row out.
	timed("read", "SELECT min(COLUMNS(*)) FROM "+*read)
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	file := filepath.Join(*out, "floor.parquet")
	timed("copy", "COPY ("+*query+") TO '"+strings.ReplaceAll(file, "'", "''")+"' (FORMAT parquet, "+*options+")")
	if fi, err := os.Stat(file); err == nil {
		res["copy_bytes"] = float64(fi.Size())
	}
	json.NewEncoder(os.Stdout).Encode(res) //nolint:errcheck // stdout
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "floor:", err)
	os.Exit(1)
}
