package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/laktory/workbench/delta/s3test"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestForgetWriterBucket: laktory table forget-writer on a table in a
// bucket (a moto server on loopback) deletes the renamed writer's rows
// and its writer claim, and nothing else; while another workspace claims
// that writer id (it may still run the writer, whose checkpoints hold the
// rows), it is refused and the rows stay.
func TestForgetWriterBucket(t *testing.T) {
	srv := s3test.Shared(t)
	srv.Setenv(t)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	bucket := srv.Bucket(t)
	dir := t.TempDir()
	yaml := func(b string) map[string]string {
		return map[string]string{workspace.ConfigFileName: "lake: s3://" + bucket + "/lake\n", "pl.yaml": `name: pl
nodes:
- name: a
  sources: [{path: data/a/, format: JSONL}]
  sinks: [{table_name: t, mode: APPEND, shared: true}]
- name: ` + b + `
  sources: [{path: data/b/, format: JSONL}]
  sinks: [{table_name: t, mode: APPEND, shared: true}]
`, "data/a/1.jsonl": "{\"k\": \"a\", \"v\": 1}\n", "data/b/1.jsonl": "{\"k\": \"b\", \"v\": 2}\n{\"k\": \"b\", \"v\": 3}\n"}
	}
	workspacetest.Write(t, dir, yaml("b"))
	if code, out, errs := runCLI(t, nil, "run", dir); code != ExitOK {
		t.Fatalf("run: exit %d\n%s%s", code, out, errs)
	}
	workspacetest.Write(t, dir, yaml("c"))
	if code, out, errs := runCLI(t, nil, "run", dir); code != ExitOK {
		t.Fatalf("run after the rename: exit %d\n%s%s", code, out, errs)
	}
	if _, out, _ := runCLI(t, nil, "validate", "--deep", dir); !strings.Contains(out, "holds rows of writer ids no current writer declares: 'pl.b' (2 rows)") {
		t.Fatalf("validate --deep: no LK202 for pl.b:\n%s", out)
	}
	rows := func(where string) int {
		_, out, _ := runCLI(t, nil, "table", "scan", "t", "--dir", dir, "--json", "--where", where)
		return strings.Count(out, "\n")
	}
	total, others := rows("true"), rows("_laktory_writer IN ('pl.a', 'pl.c')")
	if total != 6 || others != 4 { // pl.a's batch source is read by both runs

		_, out, _ := runCLI(t, nil, "table", "scan", "t", "--dir", dir, "--json")
		t.Fatalf("setup: %d rows, %d of the current writers; want 6 and 4:\n%s", total, others, out)
	}

	ctx := context.Background()
	cl := srv.Client()
	key := "lake/main/default/t/_laktory/writers/pl.b.json"
	get := func() ([]byte, error) {
		o, err := cl.GetObject(ctx, &s3.GetObjectInput{Bucket: &bucket, Key: &key})
		if err != nil {
			return nil, err
		}
		defer o.Body.Close()
		return io.ReadAll(o.Body)
	}
	put := func(b []byte) {
		if _, err := cl.PutObject(ctx, &s3.PutObjectInput{Bucket: &bucket, Key: &key, Body: bytes.NewReader(b), ContentLength: aws.Int64(int64(len(b)))}); err != nil {
			t.Fatal(err)
		}
	}
	ours, err := get()
	if err != nil {
		t.Fatalf("the first run claimed no writer pl.b: %v", err)
	}

	// Another workspace's claim: refused, nothing changed.
	put([]byte(`{"writer":"pl.b","host":"laptop-2","workspace":"/home/other/ws","claimed_at":"2026-01-02T03:04:05Z"}`))
	code, _, errs := runCLI(t, nil, "table", "forget-writer", "t", "--writer", "pl.b", "--dir", dir, "--yes")
	if code == ExitOK || !strings.Contains(errs, "claimed by the workspace /home/other/ws on laptop-2") || !strings.Contains(errs, "s3://"+bucket+"/"+key) {
		t.Fatalf("another workspace's claim: exit %d: %s", code, errs)
	}
	if n := rows("true"); n != total {
		t.Fatalf("the refused forget-writer changed the table: %d rows, want %d", n, total)
	}

	// This workspace's claim: the rows go, and the claim with them.
	put(ours)
	if code, out, errs := runCLI(t, nil, "table", "forget-writer", "t", "--writer", "pl.b", "--dir", dir, "--yes"); code != ExitOK || !strings.Contains(out, "Deleted 2 rows of writer id 'pl.b'") {
		t.Fatalf("--yes: exit %d\n%s%s", code, out, errs)
	}
	if n, m := rows("true"), rows("_laktory_writer IN ('pl.a', 'pl.c')"); n != total-2 || m != others || m != n {
		t.Fatalf("after forgetting pl.b: %d rows (%d of the current writers), want %d, all theirs", n, m, total-2)
	}
	var nsk *types.NoSuchKey
	if _, err := get(); !errors.As(err, &nsk) {
		t.Fatalf("the claim of the forgotten writer is still there: %v", err)
	}
	if _, out, _ := runCLI(t, nil, "validate", "--deep", dir); strings.Contains(out, "LK202") {
		t.Fatalf("LK202 after forgetting:\n%s", out)
	}
}
