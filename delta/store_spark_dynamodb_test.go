package delta

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestInteropSparkDynamoDBLogStore writes one bucket table from Spark 4.2
// + Delta 4.4 with Delta's multi-cluster LogStore for S3
// (S3DynamoDBLogStore: commits serialized through a DynamoDB table, moto's)
// and from this package at once, and finds out what happens when the
// workbench commits version N inside Spark's commit of N: after Spark
// checked that N.json is absent and wrote its temporary T(N), before it
// copies T(N) to N.json. This package never looks at DynamoDB, so its
// put-if-absent takes N. Then:
//
//   - with s3a's create performance on (and fs.s3a.create.conditional.enabled,
//     as the Spark engine sets them), Spark's copy is a plain PUT with no
//     If-None-Match: it replaces the workbench's N.json, whose rows are
//     then in no version, though its commit was reported done;
//   - with s3a's default create, the copy finds N.json and fails, and
//     BaseExternalLogStore.write ignores failures after its DynamoDB entry
//     is made (a later listing copies T(N) unless N.json exists, which it
//     does): Spark reports the commit done, and its rows are in no version.
//
// Whatever the interleaving, each version holds one writer's commit; the
// test checks that the rows are those of the log (here and by delta-rs)
// and which writer's commits were lost (docs/object-storage.md).
//
// Opt-in: LAKTORY_SPARK_PYTHON (pyspark 4.2.0 and delta-spark 4.4.0; the
// jars of delta-spark and hadoop-aws 3.5.0 come from Maven Central) and
// LAKTORY_DELTA_DYNAMODB_JARS, a comma-separated list of the jar of
// io.delta:delta-storage-s3-dynamodb:4.4.0 and those of the AWS SDK v1
// DynamoDB client it needs (com.amazonaws:aws-java-sdk-dynamodb 1.12.262
// and its dependencies). Its client has no endpoint setting: against moto
// it must be built to read the JVM property laktory.test.ddb.endpoint.
func TestInteropSparkDynamoDBLogStore(t *testing.T) {
	sparkPy, jars := os.Getenv("LAKTORY_SPARK_PYTHON"), os.Getenv("LAKTORY_DELTA_DYNAMODB_JARS")
	if sparkPy == "" || jars == "" {
		t.Skip("LAKTORY_SPARK_PYTHON and LAKTORY_DELTA_DYNAMODB_JARS not set: the Spark DynamoDB LogStore check is opt-in")
	}
	if testing.Short() {
		t.Skip("takes minutes")
	}
	for _, tt := range []struct {
		name string
		s3a  []string // s3a's create options for Spark
		// oursLost: Spark's copy of T(N) replaces the workbench's N.json
		// (an unconditional PUT); otherwise the copy finds it and fails,
		// and Spark's commit is lost.
		oursLost bool
	}{
		{name: "s3a create performance and conditional create", s3a: []string{"S3A_CREATE_PERFORMANCE=true", "S3A_CREATE_CONDITIONAL=true"}, oursLost: true},
		{name: "s3a default create", s3a: []string{"S3A_CREATE_PERFORMANCE=false", "S3A_CREATE_CONDITIONAL=false"}},
	} {
		t.Run(tt.name, func(t *testing.T) { sparkDynamoDBRace(t, sparkPy, jars, tt.s3a, tt.oursLost) })
	}
}

// sparkDynamoDBRace is a run of TestInteropSparkDynamoDBLogStore with
// Spark's s3a create options s3a.
func sparkDynamoDBRace(t *testing.T, sparkPy, jars string, s3a []string, oursLost bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	db := writeTestDB(t)
	SetObjectCache(&ObjectCache{Dir: t.TempDir()})
	t.Cleanup(func() { SetObjectCache(nil) })
	root := s3Root(t)
	mustCreate(t, db, root, "SELECT 0::BIGINT AS id, 'go' AS w", nil, nil)
	st, err := storeFor(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	const sparkCommits, sparkFrom = 6, 100000

	// Spark appends in a process of its own.
	cmd := exec.CommandContext(ctx, sparkPy, filepath.Join("testdata", "s3_spark_append.py"), root, fmt.Sprint(sparkFrom), fmt.Sprint(sparkCommits), "dynamodb")
	cmd.Env = append(append(os.Environ(), s3a...), "DELTA_DYNAMODB_JARS="+jars, "SPARK_LOCAL_IP=127.0.0.1", "DDB_TABLE=delta_log_"+strings.TrimPrefix(strings.Split(strings.TrimPrefix(root, "s3://"), "/")[0], "lk-"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var (
		mu       sync.Mutex
		done     []int // Spark's commits reported done (their first id)
		failures []string
	)
	sparkEnded, ready := make(chan error, 1), make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if bytes.Contains(sc.Bytes(), []byte(`"ready"`)) {
				close(ready)
			}
			var line struct {
				Commit *int   `json:"commit"`
				From   int    `json:"from"`
				Error  string `json:"error"`
			}
			if json.Unmarshal(sc.Bytes(), &line) != nil || line.Commit == nil {
				continue
			}
			mu.Lock()
			if line.Error != "" {
				failures = append(failures, line.Error)
			} else {
				done = append(done, line.From)
			}
			mu.Unlock()
		}
		sparkEnded <- cmd.Wait()
	}()

	// The workbench's writer lies in wait: with a commit staged on the
	// latest snapshot (version V), it commits the moment Spark's T(V+1)
	// appears, unless V+1.json is there already.
	type ours struct{ from, version int64 }
	var committed []ours
	seenTemp := map[string]bool{}
	next := int64(0)
	var sparkErr error
	select {
	case <-ready:
	case sparkErr = <-sparkEnded:
		t.Fatalf("spark: %v\n%s", sparkErr, tail(stderr.String(), 3000))
	}
wait:
	for {
		snap, err := LoadSnapshot(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		tx, err := snap.Begin(WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		from := next
		next += 10
		if _, err := tx.Append(ctx, db, fmt.Sprintf("SELECT i::BIGINT AS id, 'go' AS w FROM range(%d, %d) r(i)", from+1, from+11)); err != nil {
			t.Fatal(err)
		}
		target := snap.Version() + 1
		for poll := 0; ; poll++ {
			select {
			case sparkErr = <-sparkEnded:
				tx.Abort()
				break wait
			default:
			}
			temps, err := st.List(ctx, LogDirName+"/.tmp", ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			fresh := false
			for _, o := range temps {
				if !seenTemp[o.Key] && strings.HasPrefix(o.Name(), fmt.Sprintf("%020d.json.", target)) {
					fresh = true
				}
				seenTemp[o.Key] = true
			}
			if fresh {
				res, err := tx.Commit(ctx)
				if err != nil {
					t.Fatal(err)
				}
				committed = append(committed, ours{from + 1, res.Version})
				break
			}
			if poll%20 != 19 {
				time.Sleep(3 * time.Millisecond)
				continue
			}
			if v, err := latestVersion(ctx, root, 0); err != nil {
				t.Fatal(err)
			} else if v >= target {
				tx.Abort() // Spark committed V+1 before we saw T(V+1): stage again
				break
			}
		}
	}
	if sparkErr != nil {
		t.Fatalf("spark: %v\n%s", sparkErr, tail(stderr.String(), 3000))
	}
	if len(failures) > 0 || len(done) != sparkCommits {
		t.Fatalf("spark: %d commits done, failures %v", len(done), failures)
	}

	// Which version holds each Spark T(N): N.json is T(N), or another
	// writer's commit (Spark's commit lost).
	end := mustSnapshot(t, root)
	temps, err := st.List(ctx, LogDirName+"/.tmp", ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	copied, lost := 0, 0
	for _, o := range temps {
		var v int64
		if _, err := fmt.Sscanf(o.Name(), "%020d.json.", &v); err != nil {
			t.Fatalf("temporary commit %s", o.Key)
		}
		temp, err := st.Get(ctx, o.Key)
		if err != nil {
			t.Fatal(err)
		}
		final, err := st.Get(ctx, logKey(CommitFileName(v)))
		if err != nil {
			t.Fatalf("T(%d) without %d.json: %v", v, v, err)
		}
		if bytes.Equal(temp, final) {
			copied++
		} else {
			lost++
			t.Logf("Spark's commit of version %d lost: %s holds another writer's commit", v, CommitFileName(v))
		}
	}
	for v := int64(0); v <= end.Version(); v++ {
		c, err := readCommit(ctx, root, v)
		if err != nil {
			t.Fatal(err)
		}
		who := "?"
		if c.Info != nil {
			who = c.Info.Operation + " by " + c.Info.EngineInfo
		}
		t.Logf("version %d: %s", v, who)
	}
	t.Logf("workbench: %d commits %v; Spark: %d reported done, %d T(N) copied, %d lost", len(committed), committed, len(done), copied, lost)
	if copied+lost != sparkCommits {
		t.Fatalf("%d temporary commits of Spark, want %d", copied+lost, sparkCommits)
	}

	rows := snapshotRows(t, db, end, "w", "id")
	if dup := len(rows) - len(slices.Compact(slices.Clone(rows))); dup != 0 {
		t.Fatalf("%d rows twice", dup)
	}
	count := map[string]int{}
	for _, r := range rows {
		count[strings.SplitN(r, "|", 2)[0]]++
	}
	present := map[string]bool{}
	for _, r := range rows {
		present[r] = true
	}
	standing := 0
	for _, c := range committed {
		in := 0
		for id := c.from; id < c.from+10; id++ {
			if present[fmt.Sprintf("go|%d", id)] {
				in++
			}
		}
		switch in {
		case 10:
			standing++
		case 0:
			t.Logf("the workbench's commit at version %d (ids from %d) was lost: Spark's copy of its T(%d) replaced it", c.version, c.from, c.version)
		default:
			t.Fatalf("%d of the 10 rows of the workbench's commit at version %d", in, c.version)
		}
	}
	if count["go"] != 10*standing {
		t.Fatalf("%d of the workbench's rows, want %d", count["go"], 10*standing)
	}
	// Every ambush is one version both writers committed: exactly one of
	// the two commits is in the log, and which one the s3a create decides.
	if oursLost && (standing == len(committed) || lost != 0) {
		t.Fatalf("%d of the workbench's %d commits stand and %d of Spark's are lost: Spark's unconditional copy was to replace ours", standing, len(committed), lost)
	}
	if !oursLost && (standing != len(committed) || lost == 0) {
		t.Fatalf("%d of the workbench's %d commits stand and %d of Spark's are lost: Spark's copy was to fail on ours", standing, len(committed), lost)
	}
	if count["spark"] != 10*copied {
		t.Fatalf("%d of Spark's rows, want %d (%d of %d commits copied)", count["spark"], 10*copied, copied, sparkCommits)
	}
	if v, dr := deltaRSRows(t, root); v != end.Version() || len(dr) != len(rows) {
		t.Fatalf("delta-rs reads v%d, %d rows", v, len(dr))
	}
	t.Logf("workbench: %d commits, %d stand; Spark: %d commits reported done, %d of them lost (their rows in no version); table at version %d",
		len(committed), standing, len(done), lost, end.Version())
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
