package delta

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// conflictEnv is a table with writer a's rows (ids 0..9) and writer b's
// rows (ids 10..19) in separate files, and the DuckDB to write with.
type conflictEnv struct {
	t    *testing.T
	db   *sql.DB
	root string
}

func newConflictEnv(t *testing.T, partitioned bool, props map[string]string) *conflictEnv {
	e := &conflictEnv{t: t, db: writeTestDB(t), root: filepath.Join(t.TempDir(), "t")}
	var parts []string
	if partitioned {
		parts = []string{"writer"}
	}
	mustCreate(t, e.db, e.root, e.rows("a", 0, 0), parts, props)
	mustAppend(t, e.db, e.root, e.rows("a", 0, 10))
	mustAppend(t, e.db, e.root, e.rows("b", 10, 20))
	return e
}

func (e *conflictEnv) rows(writer string, from, to int) string {
	return rangeQuery(from, to, fmt.Sprintf("'%s' AS writer, (i %% 5)::INTEGER AS v", writer))
}

// Operations: each stages something on a transaction.
type txOp func(e *conflictEnv, tx *Transaction) error

func appendOp(writer string, from int) txOp {
	return func(e *conflictEnv, tx *Transaction) error {
		_, err := tx.Append(context.Background(), e.db, e.rows(writer, from, from+5))
		return err
	}
}

func deleteOp(pred string) txOp {
	return func(e *conflictEnv, tx *Transaction) error {
		_, err := tx.Delete(context.Background(), e.db, pred)
		return err
	}
}

func ops(list ...txOp) txOp {
	return func(e *conflictEnv, tx *Transaction) error {
		for _, o := range list {
			if err := o(e, tx); err != nil {
				return err
			}
		}
		return nil
	}
}

func refreshOp(writer string, from int) txOp {
	return ops(deleteOp("writer = '"+writer+"'"), appendOp(writer, from))
}

func truncateOp(e *conflictEnv, tx *Transaction) error {
	_, err := tx.Truncate(context.Background())
	return err
}

func optimizeOp(e *conflictEnv, tx *Transaction) error {
	_, err := tx.Optimize(context.Background(), e.db, OptimizeOptions{})
	return err
}

func txnOp(app string, version int64) txOp {
	return func(e *conflictEnv, tx *Transaction) error {
		_, err := tx.SetAppTransaction(app, version)
		return err
	}
}

func mergeOp(col, typ string) txOp {
	return func(e *conflictEnv, tx *Transaction) error {
		tx.opts.MergeSchema = true
		_, err := tx.Append(context.Background(), e.db, "SELECT 100::BIGINT AS id, 'c' AS writer, CAST(NULL AS "+typ+") AS "+col)
		return err
	}
}

// TestConflictMatrix runs, per conflict rule, a losing transaction that
// read the table before a winning commit, and checks whether the loser
// rebases and commits or fails with the rule's sentinel, leaving nothing
// behind.
func TestConflictMatrix(t *testing.T) {
	tests := []struct {
		name        string
		partitioned bool
		props       map[string]string
		loser       txOp
		winner      txOp
		want        error
	}{
		{name: "blind append vs blind append", loser: appendOp("a", 100), winner: appendOp("b", 200)},
		{name: "blind append vs delete", loser: appendOp("a", 100), winner: deleteOp("writer = 'a'")},
		{name: "blind append vs truncate", loser: appendOp("a", 100), winner: truncateOp},
		{name: "delete of a vs append of b (stats)", loser: deleteOp("writer = 'a'"), winner: appendOp("b", 200)},
		{name: "delete of a vs append of a (stats)", loser: deleteOp("writer = 'a'"), winner: appendOp("a", 200), want: ErrConcurrentAppend},
		{name: "refresh of a vs refresh of b", loser: refreshOp("a", 100), winner: refreshOp("b", 200)},
		{name: "unpartitioned delete vs non-blind append", loser: deleteOp("id % 2 = 0"), winner: refreshOp("b", 200), want: ErrConcurrentAppend},
		{name: "unpartitioned delete vs blind append", loser: deleteOp("id % 2 = 0"), winner: appendOp("b", 200), want: ErrConcurrentAppend},
		{name: "WriteSerializable delete vs blind append", props: map[string]string{PropIsolationLevel: "WriteSerializable"},
			loser: deleteOp("id % 2 = 0"), winner: appendOp("b", 200)},
		{name: "WriteSerializable delete vs non-blind append", props: map[string]string{PropIsolationLevel: "WriteSerializable"},
			loser: deleteOp("id % 2 = 0"), winner: refreshOp("b", 200), want: ErrConcurrentAppend},
		{name: "partitioned delete of a vs append into b", partitioned: true, loser: deleteOp("writer = 'a'"), winner: appendOp("b", 200)},
		{name: "partitioned delete of a vs append into a", partitioned: true, loser: deleteOp("writer = 'a'"), winner: appendOp("a", 200), want: ErrConcurrentAppend},
		{name: "partitioned LIKE delete vs append into b", partitioned: true, loser: deleteOp("writer LIKE 'a%'"), winner: appendOp("b", 200)},
		{name: "partitioned refresh of a vs refresh of b", partitioned: true, loser: refreshOp("a", 100), winner: refreshOp("b", 200)},
		{name: "partitioned data delete vs append into b", partitioned: true, loser: deleteOp("id % 2 = 0"), winner: appendOp("b", 200), want: ErrConcurrentAppend},
		// Delete-read is checked before delete-delete (ConflictChecker.scala:310-311).
		{name: "delete vs delete of the same file", loser: deleteOp("id < 5"), winner: deleteOp("writer = 'a'"), want: ErrConcurrentDeleteRead},
		{name: "delete vs a rewrite of the file it reads", loser: deleteOp("writer = 'a'"), winner: deleteOp("id = 3"), want: ErrConcurrentAppend},
		{name: "read file deleted concurrently", loser: ops(deleteOp("writer = 'a' AND id % 100 = 99"), appendOp("c", 300)),
			winner: deleteOp("writer = 'a'"), want: ErrConcurrentDeleteRead},
		{name: "truncate vs blind append", loser: truncateOp, winner: appendOp("b", 200), want: ErrConcurrentAppend},
		{name: "truncate vs delete", loser: truncateOp, winner: deleteOp("writer = 'b'"), want: ErrConcurrentDeleteRead},
		// OPTIMIZE's adds are not a blind append: they count at S and WS,
		// dataChange false or not (WinningCommitSummary.changedDataAddedFiles),
		// and its compacted file holds a's rows and b's.
		{name: "delete of nothing and an append vs OPTIMIZE", loser: ops(deleteOp("writer = 'a1'"), appendOp("c", 300)), winner: optimizeOp, want: ErrConcurrentAppend},
		{name: "delete of c and an append vs OPTIMIZE", loser: ops(deleteOp("writer = 'c'"), appendOp("c", 300)), winner: optimizeOp},
		{name: "WriteSerializable delete vs OPTIMIZE of the files it read", props: map[string]string{PropIsolationLevel: "WriteSerializable"},
			loser: deleteOp("writer = 'a'"), winner: optimizeOp, want: ErrConcurrentAppend},
		{name: "SnapshotIsolation delete vs OPTIMIZE of the files it read", props: map[string]string{PropIsolationLevel: "SnapshotIsolation"},
			loser: deleteOp("writer = 'a'"), winner: optimizeOp, want: ErrConcurrentDeleteRead},
		// The winner removes b's file (not read) and adds rows of a.
		{name: "WriteSerializable delete of a vs non-blind append of a", props: map[string]string{PropIsolationLevel: "WriteSerializable"},
			loser: deleteOp("writer = 'a'"), winner: ops(deleteOp("writer = 'b'"), appendOp("a", 200)), want: ErrConcurrentAppend},
		{name: "SnapshotIsolation delete of a vs non-blind append of a", props: map[string]string{PropIsolationLevel: "SnapshotIsolation"},
			loser: deleteOp("writer = 'a'"), winner: ops(deleteOp("writer = 'b'"), appendOp("a", 200))},
		{name: "blind append vs schema change", loser: appendOp("a", 100), winner: mergeOp("extra", "VARCHAR"), want: ErrMetadataChanged},
		// A protocol that only adds features is judged by the metadata
		// check (ConflictChecker.scala:325-365, then 643-662).
		{name: "blind append vs protocol upgrade", loser: appendOp("a", 100), winner: mergeOp("at", "TIMESTAMP"), want: ErrMetadataChanged},
		{name: "protocol upgrade vs protocol upgrade", loser: mergeOp("at", "TIMESTAMP"), winner: mergeOp("at2", "TIMESTAMP"), want: ErrProtocolChanged},
		{name: "txn vs same app's txn and a schema change", loser: ops(txnOp("app", 1), appendOp("a", 100)),
			winner: ops(txnOp("app", 1), mergeOp("extra", "VARCHAR")), want: ErrMetadataChanged},
		{name: "same application id", loser: ops(txnOp("app", 1), appendOp("a", 100)), winner: ops(txnOp("app", 1), appendOp("b", 200)), want: ErrConcurrentTransaction},
		{name: "other application id", loser: ops(txnOp("app", 1), appendOp("a", 100)), winner: ops(txnOp("other", 1), appendOp("b", 200))},
	}
	ctx := context.Background()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newConflictEnv(t, tt.partitioned, tt.props)
			read := mustSnapshot(t, e.root)
			loser, err := read.Begin(WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.loser(e, loser); err != nil {
				t.Fatal(err)
			}
			winner, err := mustSnapshot(t, e.root).Begin(WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.winner(e, winner); err != nil {
				t.Fatal(err)
			}
			wres, err := winner.Commit(ctx)
			if err != nil || !wres.Committed {
				t.Fatalf("winner: %+v, %v", wres, err)
			}
			res, err := loser.Commit(ctx)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("loser: %v", err)
				}
				if res.Version != wres.Version+1 || res.Rebases != 1 || res.ReadVersion != read.Version() {
					t.Fatalf("loser %+v (winner %d)", res, wres.Version)
				}
				if rv := commitInfoOf(t, e.root, res.Version).ReadVersion; rv == nil || *rv != read.Version() {
					t.Fatalf("readVersion %v", rv)
				}
			} else {
				var ce *ConflictError
				if !errors.Is(err, tt.want) || !errors.As(err, &ce) || !IsRetryable(err) {
					t.Fatalf("loser: err = %v, want %v", err, tt.want)
				}
				if ce.WinningVersion != wres.Version || ce.ReadVersion != read.Version() {
					t.Fatalf("conflict %+v", ce)
				}
				if v := mustSnapshot(t, e.root).Version(); v != wres.Version {
					t.Fatalf("version %d after the conflict", v)
				}
			}
			assertNoOrphans(t, e.root)
		})
	}
}

// assertNoOrphans checks that every data file on disk is named by an add
// action of some commit (a failed transaction leaves none behind).
func assertNoOrphans(t *testing.T, root string) {
	t.Helper()
	known := map[string]bool{}
	s := mustSnapshot(t, root)
	for v := int64(0); v <= s.Version(); v++ {
		for _, a := range readCommitActions(t, root, v) {
			if a.Add != nil {
				p, _ := a.Add.DecodedPath()
				known[p] = true
			}
		}
	}
	for _, f := range dataFiles(t, root) {
		if !known[f] {
			t.Errorf("orphaned data file %s", f)
		}
	}
}

func TestCreateRace(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	var txs []*Transaction
	for i := 0; i < 2; i++ {
		tx, err := BeginCreate(root, TableDefinition{}, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Append(ctx, db, rangeQuery(i*10, i*10+10, "")); err != nil {
			t.Fatal(err)
		}
		txs = append(txs, tx)
	}
	if _, err := txs[0].Commit(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := txs[1].Commit(ctx)
	if !errors.Is(err, ErrMetadataChanged) || !errors.Is(err, ErrTableExists) || !IsRetryable(err) {
		t.Fatalf("second creator: %v", err)
	}
	if got := tableRows(t, db, root, "id"); len(got) != 10 {
		t.Fatalf("%d rows", len(got))
	}
	assertNoOrphans(t, root)

	// A creator that starts after the table appeared (it looked at the
	// lake before) lost the same race: a retryable conflict that also
	// says the table exists, naming the winning version.
	_, err = BeginCreate(root, TableDefinition{}, WriteOptions{})
	var ce *ConflictError
	if !errors.Is(err, ErrTableExists) || !errors.Is(err, ErrMetadataChanged) || !IsRetryable(err) || !errors.As(err, &ce) {
		t.Fatalf("create on a table: %v", err)
	}
	if ce.WinningVersion != 0 || ce.WinningOperation != "CREATE TABLE AS SELECT" || !strings.Contains(err.Error(), root) {
		t.Fatalf("conflict %+v: %v", ce, err)
	}
}

// TestCreateRaceJoined: with WriteOptions.JoinCreate, a creator that loses
// the race to a creator of the same table (protocol and metadata) commits
// its files as an append on the winner's table, after any other winner;
// anything else it would have written differently (a column, a property,
// partitioning), a txn, or the option off, still fails as a lost create.
func TestCreateRaceJoined(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	join := WriteOptions{JoinCreate: true}
	tests := []struct {
		name string
		// loser's definition, query and options; appID sets a txn.
		def   TableDefinition
		query string
		opts  WriteOptions
		appID string
		// between: another writer appends between the create and the
		// loser's commit.
		between  bool
		joined   bool
		wantRows int
	}{
		{name: "same table", query: rangeQuery(10, 20, "'b' AS w"), opts: join, joined: true, wantRows: 20},
		{name: "same table, another append first", query: rangeQuery(10, 20, "'b' AS w"), opts: join, between: true, joined: true, wantRows: 25},
		{name: "option off", query: rangeQuery(10, 20, "'b' AS w"), wantRows: 10},
		{name: "another column", query: rangeQuery(10, 20, "'b' AS w, 1 AS x"), opts: join, wantRows: 10},
		{name: "another property", def: TableDefinition{Properties: map[string]string{PropAppendOnly: "true"}}, query: rangeQuery(10, 20, "'b' AS w"), opts: join, wantRows: 10},
		{name: "partitioned", def: TableDefinition{PartitionColumns: []string{"w"}}, query: rangeQuery(10, 20, "'b' AS w"), opts: join, wantRows: 10},
		{name: "a txn", query: rangeQuery(10, 20, "'b' AS w"), opts: join, appID: "flow", wantRows: 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "t")
			winner, err := BeginCreate(root, TableDefinition{}, join)
			if err != nil {
				t.Fatal(err)
			}
			loser, err := BeginCreate(root, tt.def, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if tt.appID != "" {
				if _, err := loser.SetAppTransaction(tt.appID, 0); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := winner.Append(ctx, db, rangeQuery(0, 10, "'a' AS w")); err != nil {
				t.Fatal(err)
			}
			if _, err := loser.Append(ctx, db, tt.query); err != nil {
				t.Fatal(err)
			}
			if _, err := winner.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			if tt.between {
				tx, err := mustSnapshot(t, root).Begin(WriteOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := tx.Append(ctx, db, rangeQuery(100, 105, "'c' AS w")); err != nil {
					t.Fatal(err)
				}
				if _, err := tx.Commit(ctx); err != nil {
					t.Fatal(err)
				}
			}
			res, err := loser.Commit(ctx)
			if !tt.joined {
				if !errors.Is(err, ErrTableExists) || !IsRetryable(err) {
					t.Fatalf("loser: %v", err)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				want := int64(1)
				if tt.between {
					want = 2
				}
				if res.Version != want || res.Operation != "WRITE" || res.Metrics.AddedRows != 10 {
					t.Fatalf("joined commit %+v, want version %d, WRITE", res, want)
				}
				var info *CommitInfo
				for _, a := range readCommitActions(t, root, want) {
					if a.Protocol != nil || a.MetaData != nil {
						t.Fatalf("the joined append rewrote the protocol or metadata: %+v", a)
					}
					if a.CommitInfo != nil {
						info = a.CommitInfo
					}
				}
				if info == nil || info.OperationParameters["mode"] != "Append" || info.ReadVersion == nil || *info.ReadVersion != 0 ||
					info.IsBlindAppend == nil || !*info.IsBlindAppend {
					t.Fatalf("commitInfo %+v", info)
				}
			}
			if got := tableRows(t, db, root, "id"); len(got) != tt.wantRows {
				t.Fatalf("%d rows, want %d", len(got), tt.wantRows)
			}
			assertNoOrphans(t, root)
		})
	}
}

// TestCreateFolders: a transaction creating a table makes the table folder
// and its missing parents when it writes, and removes what it made when it
// fails, is aborted or loses the race.
func TestCreateFolders(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	parts := TableDefinition{PartitionColumns: []string{"p"}}
	notNull := TableDefinition{Schema: &StructType{Fields: []*StructField{{Name: "id", Type: LongType}}}}
	errAny := errors.New("any error")
	tests := []struct {
		name  string
		rel   string // the table folder, relative to an empty folder
		def   TableDefinition
		query string
		// commit: Commit (true) or Abort (false) after a successful Append.
		commit  bool
		wantErr error
	}{
		{"nested folders are created", "lake/main/t", TableDefinition{}, rangeQuery(0, 5, ""), true, nil},
		{"partitioned, nested", "lake/main/t", parts, rangeQuery(0, 5, "'p' || (i % 2) AS p"), true, nil},
		{"aborted", "t", parts, rangeQuery(0, 5, "'p' || (i % 2) AS p"), false, nil},
		{"aborted, nested", "lake/main/t", parts, rangeQuery(0, 5, "'p' || (i % 2) AS p"), false, nil},
		{"failed append", "lake/t", notNull, "SELECT NULL::BIGINT AS id", false, ErrConstraintViolation},
		{"query failing while writing", "t", parts, "SELECT i::BIGINT AS id, 'p' || (i % 3) AS p, CASE WHEN i = 150000 THEN error('boom') END AS x FROM range(200000) t(i)", false, errAny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, filepath.FromSlash(tt.rel))
			tx, err := BeginCreate(root, tt.def, WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if entries, _ := os.ReadDir(base); len(entries) != 0 {
				t.Fatalf("BeginCreate made folders before writing: %v", entries)
			}
			_, err = tx.Append(ctx, db, tt.query)
			if tt.wantErr == nil && err != nil {
				t.Fatal(err)
			}
			if tt.commit {
				if _, err := tx.Commit(ctx); err != nil {
					t.Fatal(err)
				}
				if got := tableRows(t, db, root, "id"); len(got) != 5 {
					t.Fatalf("%d rows", len(got))
				}
				return
			}
			if tt.wantErr != nil && (err == nil || tt.wantErr != errAny && !errors.Is(err, tt.wantErr)) {
				t.Fatalf("append: %v, want %v", err, tt.wantErr)
			}
			if err := tx.Abort(); err != nil {
				t.Fatal(err)
			}
			if entries, _ := os.ReadDir(base); len(entries) != 0 {
				t.Fatalf("left behind in %s: %v", base, entries)
			}
		})
	}

	t.Run("lost race", func(t *testing.T) {
		base := t.TempDir()
		root := filepath.Join(base, "lake", "t")
		var txs []*Transaction
		for _, w := range []string{"a", "b"} {
			tx, err := BeginCreate(root, parts, WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Append(ctx, db, rangeQuery(0, 3, "'"+w+"' AS p")); err != nil {
				t.Fatal(err)
			}
			txs = append(txs, tx)
		}
		if _, err := txs[0].Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := txs[1].Commit(ctx); !errors.Is(err, ErrTableExists) {
			t.Fatalf("loser: %v", err)
		}
		if got := tableRows(t, db, root, "p"); !slices.Equal(got, []string{"a", "a", "a"}) {
			t.Fatalf("rows %v", got)
		}
		assertNoOrphans(t, root)
	})

	t.Run("failed commit", func(t *testing.T) {
		base := t.TempDir()
		root := filepath.Join(base, "lake", "t")
		tx, err := BeginCreate(root, TableDefinition{}, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Commit(ctx); !errors.Is(err, ErrInvalidSchema) {
			t.Fatalf("commit without a schema: %v", err)
		}
		if entries, _ := os.ReadDir(base); len(entries) != 0 {
			t.Fatalf("left behind: %v", entries)
		}
	})
}

func TestIsRetryable(t *testing.T) {
	for _, err := range conflictSentinels {
		if !IsRetryable(fmt.Errorf("wrapped: %w", &ConflictError{Err: err})) {
			t.Errorf("%v is not retryable", err)
		}
	}
	for _, err := range []error{ErrSchemaMismatch, ErrInvalidPredicate, ErrTableExists, ErrUnsupportedFeature, os.ErrPermission, nil} {
		if IsRetryable(err) {
			t.Errorf("%v is retryable", err)
		}
	}
}

func TestPutCommitFile(t *testing.T) {
	dir := t.TempDir()
	ok, err := putCommitFile(dir, 3, []byte("first\n"))
	if err != nil || !ok {
		t.Fatalf("%v, %v", ok, err)
	}
	ok, err = putCommitFile(dir, 3, []byte("second\n"))
	if err != nil || ok {
		t.Fatalf("second put: %v, %v", ok, err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, CommitFileName(3)))
	if string(b) != "first\n" {
		t.Fatalf("commit replaced: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{CommitFileName(3)}) {
		t.Fatalf("temporary files left: %v", names)
	}
}

// TestIsolationLevel: delta.isolationLevel as Delta 4.4 reads it
// (TransactionHelper.scala:82-84, isolationLevels.scala:87-91): unset is
// Serializable, any of the three levels in any case is that level, and
// the commit records the level it was checked with, SnapshotIsolation for
// a commit that changes no data (OPTIMIZE, canDowngradeToSnapshotIsolation
// l.113-146); any other value is refused for writing as Delta refuses it
// (DELTA_INVALID_ISOLATION_LEVEL), at create and on an existing table.
func TestIsolationLevel(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		value         string // "" : unset
		want          string // the level an append records
		wantOptimized string
	}{
		{value: "", want: "Serializable", wantOptimized: "SnapshotIsolation"},
		{value: "Serializable", want: "Serializable", wantOptimized: "SnapshotIsolation"},
		{value: "WriteSerializable", want: "WriteSerializable", wantOptimized: "SnapshotIsolation"},
		{value: "writeSERIALIZABLE", want: "WriteSerializable", wantOptimized: "SnapshotIsolation"},
		{value: "SnapshotIsolation", want: "SnapshotIsolation", wantOptimized: "SnapshotIsolation"},
		{value: "bogus"},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			db := writeTestDB(t)
			root := filepath.Join(t.TempDir(), "t")
			var props map[string]string
			if tt.value != "" {
				props = map[string]string{PropIsolationLevel: tt.value}
			}
			if tt.want == "" {
				_, err := BeginCreate(root, TableDefinition{Properties: props}, WriteOptions{})
				if !errors.Is(err, ErrUnsupportedFeature) || !strings.Contains(err.Error(), "DELTA_INVALID_ISOLATION_LEVEL") {
					t.Fatalf("create: %v", err)
				}
				// A table another writer left with the value: refused too.
				mustCreate(t, db, root, rangeQuery(0, 3, "'a' AS writer"), nil, nil)
				setTableProperty(t, root, PropIsolationLevel, tt.value)
				if _, err := Append(ctx, db, root, rangeQuery(3, 5, "'a' AS writer"), WriteOptions{}); !errors.Is(err, ErrUnsupportedFeature) {
					t.Fatalf("append: %v", err)
				}
				return
			}
			mustCreate(t, db, root, rangeQuery(0, 3, "'a' AS writer"), nil, props)
			for k := 1; k <= 3; k++ {
				mustAppend(t, db, root, rangeQuery(3*k, 3*k+3, "'a' AS writer"))
			}
			if got := commitInfoOf(t, root, 1).IsolationLevel; got != tt.want {
				t.Fatalf("append recorded %q, want %q", got, tt.want)
			}
			res, _, err := Optimize(ctx, db, root, OptimizeOptions{}, WriteOptions{})
			if err != nil || !res.Committed {
				t.Fatalf("optimize: %+v %v", res, err)
			}
			if got := commitInfoOf(t, root, res.Version).IsolationLevel; got != tt.wantOptimized {
				t.Fatalf("optimize recorded %q, want %q", got, tt.wantOptimized)
			}
		})
	}
}

// setTableProperty commits a metaData with the property set, as another
// writer would.
func setTableProperty(t *testing.T, root, key, value string) {
	t.Helper()
	s := mustSnapshot(t, root)
	m := s.Metadata()
	conf := map[string]string{}
	for k, v := range m.Configuration {
		conf[k] = v
	}
	conf[key] = value
	m.Configuration = conf
	meta, err := json.Marshal(map[string]any{"metaData": m})
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(root, LogDirName, fmt.Sprintf("%020d.json", s.Version()+1))
	if err := os.WriteFile(name, append([]byte(`{"commitInfo":{"timestamp":0,"operation":"SET TBLPROPERTIES"}}`+"\n"), append(meta, '\n')...), 0o644); err != nil {
		t.Fatal(err)
	}
}
