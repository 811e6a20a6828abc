// Command deltaop runs one write of package delta on a table folder, for
// the Spark interop check (scripts/interop/spark_check.sh): it lets the
// check have our code create, append to, delete from, overwrite and
// truncate tables, Spark's included, exactly as the runner does.
//
//	deltaop create   ROOT --query SQL [--partition a,b] [--prop k=v]...
//	deltaop append   ROOT --query SQL
//	deltaop overwrite ROOT --query SQL
//	deltaop delete   ROOT --where PREDICATE
//	deltaop truncate ROOT
//	deltaop optimize ROOT [--min-file-size BYTES]
//
// Queries and predicates are DuckDB SQL. It prints the commit as JSON
// ({"version", "committed", "operation", "metrics", "checkpoint",
// "checkpointError"}: a checkpoint that failed does not undo the commit)
// and exits 1 on an error.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/laktory/workbench/delta"
)

// props collects repeated --prop k=v flags.
type props map[string]string

func (p props) String() string { return fmt.Sprint(map[string]string(p)) }

func (p props) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("--prop %q: want key=value", s)
	}
	p[k] = v
	return nil
}

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "deltaop:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	if len(args) < 2 {
		return errors.New("usage: deltaop create|append|overwrite|delete|truncate|optimize ROOT [flags]")
	}
	op, root := args[0], args[1]
	fs := flag.NewFlagSet(op, flag.ContinueOnError)
	query := fs.String("query", "", "DuckDB query whose rows are written")
	where := fs.String("where", "", "DuckDB predicate of the rows to delete")
	partition := fs.String("partition", "", "comma-separated partition columns (create)")
	minSize := fs.Int64("min-file-size", 0, "compact files smaller than this (optimize; 0: the target size)")
	properties := props{}
	fs.Var(properties, "prop", "table property key=value (create; repeatable)")
	if err := fs.Parse(args[2:]); err != nil {
		return err
	}
	db, err := delta.OpenDuckDB(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	var res *delta.CommitResult
	switch op {
	case "create":
		def := delta.TableDefinition{Properties: properties}
		if *partition != "" {
			def.PartitionColumns = strings.Split(*partition, ",")
		}
		tx, err := delta.BeginCreate(root, def, delta.WriteOptions{})
		if err != nil {
			return err
		}
		if _, err := tx.Append(ctx, db, *query); err != nil {
			tx.Abort()
			return err
		}
		res, err = tx.Commit(ctx)
		if err != nil {
			return err
		}
	case "append":
		res, err = delta.Append(ctx, db, root, *query, delta.WriteOptions{})
	case "overwrite":
		res, err = delta.Overwrite(ctx, db, root, *query, delta.WriteOptions{})
	case "delete":
		res, err = delta.Delete(ctx, db, root, *where, delta.WriteOptions{})
	case "truncate":
		res, err = delta.Truncate(ctx, root, delta.WriteOptions{})
	case "optimize":
		res, _, err = delta.Optimize(ctx, db, root, delta.OptimizeOptions{MinFileSize: *minSize}, delta.WriteOptions{})
	default:
		return fmt.Errorf("unknown operation %q (create, append, overwrite, delete, truncate, optimize)", op)
	}
	if err != nil {
		return err
	}
	// A checkpoint that failed is a warning: the commit stands.
	report := struct {
		*delta.CommitResult
		CheckpointError string `json:"checkpointError,omitempty"`
	}{CommitResult: res}
	if res.CheckpointErr != nil {
		report.CheckpointError = res.CheckpointErr.Error()
	}
	return json.NewEncoder(out).Encode(report)
}
