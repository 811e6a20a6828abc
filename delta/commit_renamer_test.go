package delta

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Spark's log store on a local path commits version v by writing
// ".<v>.json.<uuid>.tmp", checking that <v>.json is absent, then renaming:
// a commit of ours linked between its check and its rename is replaced.
// These tests play that writer.

// sparkCommit is a commit as Spark writes it: commitInfo only is enough
// for the log (a blind no-op).
const sparkCommit = `{"commitInfo":{"timestamp":1700000000000,"operation":"WRITE","operationParameters":{"mode":"Append"},"isBlindAppend":true,"engineInfo":"Apache-Spark/4.2.0 Delta-Lake/4.4.0"}}` + "\n"

// sparkTemp writes Spark's temporary commit file for version v, as it
// stands after Spark checked that <v>.json does not exist.
func sparkTemp(t *testing.T, root string, v int64) string {
	t.Helper()
	tmp := filepath.Join(root, LogDirName, "."+CommitFileName(v)+".3f2a0c4e-8d5b-4a57-9a51-0c9a3a6f1b11.tmp")
	if err := os.WriteFile(tmp, []byte(sparkCommit), 0o644); err != nil {
		t.Fatal(err)
	}
	return tmp
}

// whenCommitted runs then once the commit file of version v exists.
func whenCommitted(t *testing.T, root string, v int64, then func()) chan struct{} {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		final := filepath.Join(root, LogDirName, CommitFileName(v))
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if _, err := os.Stat(final); err == nil {
				then()
				return
			}
		}
	}()
	return done
}

func TestCommitReplacedBySparkRenameIsCommittedAgain(t *testing.T) {
	tests := []struct {
		name string
		// spark is what the Spark writer does once our commit is visible.
		spark func(tmp, final string) error
		// wantVersion is where our commit ends; sparkAt where Spark's.
		wantVersion, sparkAt int64
	}{
		{"Spark renames over our commit", func(tmp, final string) error { return os.Rename(tmp, final) }, 2, 1},
		{"Spark saw our commit and gave up", func(tmp, _ string) error { return os.Remove(tmp) }, 1, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			db := writeTestDB(t)
			root := filepath.Join(t.TempDir(), "t")
			mustCreate(t, db, root, "SELECT 1::BIGINT AS id", nil, nil)
			tmp := sparkTemp(t, root, 1)
			final := filepath.Join(root, LogDirName, CommitFileName(1))
			var sparkErr error
			done := whenCommitted(t, root, 1, func() { sparkErr = tt.spark(tmp, final) })
			res, err := Append(ctx, db, root, "SELECT range::BIGINT AS id FROM range(5)", WriteOptions{})
			<-done
			if err != nil || sparkErr != nil {
				t.Fatalf("append: %v; Spark: %v", err, sparkErr)
			}
			if res.Version != tt.wantVersion {
				t.Fatalf("our commit reports version %d, want %d", res.Version, tt.wantVersion)
			}
			s := mustSnapshot(t, root)
			if got := len(tableRows(t, db, root, "id")); s.Version() != tt.wantVersion || got != 5 {
				t.Fatalf("table at version %d holds %d rows, want version %d with our 5 rows", s.Version(), got, tt.wantVersion)
			}
			if tt.sparkAt >= 0 {
				tbl, err := Open(ctx, root)
				if err != nil {
					t.Fatal(err)
				}
				c, err := tbl.ReadCommit(ctx, tt.sparkAt)
				if err != nil {
					t.Fatal(err)
				}
				if c.Info == nil || c.Info.EngineInfo != "Apache-Spark/4.2.0 Delta-Lake/4.4.0" {
					t.Fatalf("version %d is not Spark's commit: %+v", tt.sparkAt, c.Info)
				}
			}
		})
	}
}

func TestRenamerPending(t *testing.T) {
	now := time.Now()
	tests := []struct {
		name string
		file string
		age  time.Duration
		want bool
	}{
		{"Spark's temporary commit of the version", "." + CommitFileName(7) + ".1b9d.tmp", time.Second, true},
		{"left over by a writer that died", "." + CommitFileName(7) + ".1b9d.tmp", time.Minute, false},
		{"another version", "." + CommitFileName(8) + ".1b9d.tmp", time.Second, false},
		{"Hadoop's checksum of the temporary file", ".." + CommitFileName(7) + ".1b9d.tmp.crc", time.Second, false},
		{"our own temporary commit", "_commit_123.json.tmp", time.Second, false},
		{"the commit itself", CommitFileName(7), time.Second, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, tt.file)
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, now.Add(-tt.age), now.Add(-tt.age)); err != nil {
				t.Fatal(err)
			}
			if got := renamerPending(dir, CommitFileName(7), now); got != tt.want {
				t.Fatalf("renamerPending = %v, want %v", got, tt.want)
			}
		})
	}
}
