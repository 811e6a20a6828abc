package delta

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// conflictScenario is one race of the conflict corpus
// (delta/testdata/conflicts/*.json; scripts/interop/conflict_rules.py
// describes the operations).
type conflictScenario struct {
	Name        string                       `json:"name"`
	Cite        string                       `json:"cite"`
	Isolation   string                       `json:"isolation"`
	Partitioned bool                         `json:"partitioned"`
	Loser       []map[string]json.RawMessage `json:"loser"`
	Winner      []map[string]json.RawMessage `json:"winner"`
	// Ours is our result where it differs from Spark's on purpose (Why
	// says why); nil when we follow Spark.
	Ours *string `json:"ours"`
	Why  string  `json:"why"`
}

// conflictClasses names each conflict sentinel by Delta's error class.
var conflictClasses = []struct {
	err   error
	class string
}{
	{ErrConcurrentAppend, "DELTA_CONCURRENT_APPEND"},
	{ErrConcurrentDeleteRead, "DELTA_CONCURRENT_DELETE_READ"},
	{ErrConcurrentDeleteDelete, "DELTA_CONCURRENT_DELETE_DELETE"},
	{ErrMetadataChanged, "DELTA_METADATA_CHANGED"},
	{ErrProtocolChanged, "DELTA_PROTOCOL_CHANGED"},
	{ErrConcurrentTransaction, "DELTA_CONCURRENT_TRANSACTION"},
}

// corpusOp turns one operation of the corpus into a txOp.
func corpusOp(o map[string]json.RawMessage) (txOp, error) {
	if len(o) != 1 {
		return nil, fmt.Errorf("operation %v: want one key", o)
	}
	for k, raw := range o {
		switch k {
		case "append":
			var a []any
			if err := json.Unmarshal(raw, &a); err != nil || len(a) != 2 {
				return nil, fmt.Errorf("append %s: want [writer, first id]", raw)
			}
			w, _ := a[0].(string)
			lo, _ := a[1].(float64)
			return appendOp(w, int(lo)), nil
		case "delete":
			var pred string
			if err := json.Unmarshal(raw, &pred); err != nil {
				return nil, fmt.Errorf("delete %s: %w", raw, err)
			}
			return deleteOp(pred), nil
		case "txn":
			var a []any
			if err := json.Unmarshal(raw, &a); err != nil || len(a) != 2 {
				return nil, fmt.Errorf("txn %s: want [appId, version]", raw)
			}
			app, _ := a[0].(string)
			v, _ := a[1].(float64)
			return txnOp(app, int64(v)), nil
		case "truncate":
			return truncateOp, nil
		case "optimize":
			return optimizeOp, nil
		case "merge_column":
			var a []string
			if err := json.Unmarshal(raw, &a); err != nil || len(a) != 2 {
				return nil, fmt.Errorf("merge_column %s: want [name, Spark type]", raw)
			}
			typ, ok := map[string]string{"string": "VARCHAR", "timestamp_ntz": "TIMESTAMP", "int": "INTEGER", "bigint": "BIGINT"}[a[1]]
			if !ok {
				return nil, fmt.Errorf("merge_column %s: no DuckDB type for %s", raw, a[1])
			}
			return mergeOp(a[0], typ), nil
		}
		return nil, fmt.Errorf("unknown operation %q", k)
	}
	panic("unreachable")
}

func corpusOps(list []map[string]json.RawMessage) (txOp, error) {
	var out []txOp
	for _, o := range list {
		op, err := corpusOp(o)
		if err != nil {
			return nil, err
		}
		out = append(out, op)
	}
	return ops(out...), nil
}

// raceScenario runs the scenario on our tables and returns the loser's
// result as Delta names it: "" when it commits, else the error class of
// its conflict.
func raceScenario(t *testing.T, sc conflictScenario) string {
	t.Helper()
	ctx := context.Background()
	loserOp, err := corpusOps(sc.Loser)
	if err != nil {
		t.Fatal(err)
	}
	winnerOp, err := corpusOps(sc.Winner)
	if err != nil {
		t.Fatal(err)
	}
	// As the script does: a commit of its own sets the level after the
	// two appends (a table created with it behaves the same).
	e := newConflictEnv(t, sc.Partitioned, nil)
	if sc.Isolation != "" {
		setTableProperty(t, e.root, PropIsolationLevel, sc.Isolation)
	}
	loser, err := mustSnapshot(t, e.root).Begin(WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := loserOp(e, loser); err != nil {
		t.Fatalf("loser: %v", err)
	}
	winner, err := mustSnapshot(t, e.root).Begin(WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := winnerOp(e, winner); err != nil {
		t.Fatalf("winner: %v", err)
	}
	if _, err := winner.Commit(ctx); err != nil {
		t.Fatalf("winner: %v", err)
	}
	_, err = loser.Commit(ctx)
	defer assertNoOrphans(t, e.root)
	if err == nil {
		return ""
	}
	for _, c := range conflictClasses {
		if errors.Is(err, c.err) {
			return c.class
		}
	}
	return "error: " + err.Error()
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestConflictCorpus races each scenario of the conflict corpus with our
// checker and compares the loser's result with Spark 4.2 + Delta 4.4's
// (testdata/conflicts/spark.json, recorded by
// scripts/interop/conflict_rules.py). A scenario that says "ours" differs
// from Spark on purpose: ours must be that, and Spark's something else.
// The figures of each part are logged apart (go test -v).
func TestConflictCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "conflicts")
	var spark struct {
		Engine    string            `json:"engine"`
		Scenarios map[string]string `json:"scenarios"`
	}
	sparkPath := filepath.Join(dir, "spark.json")
	if _, err := os.Stat(sparkPath); errors.Is(err, os.ErrNotExist) {
		t.Skip("delta/testdata/conflicts/spark.json is not recorded: from the repository's root, run " +
			"scripts/interop/conflict_rules.py delta/testdata/conflicts/{spark,development,heldout}.json (Spark 4.2 + Delta 4.4)")
	}
	readJSONFile(t, sparkPath, &spark)
	seen := map[string]bool{}
	for _, part := range []string{"development", "heldout"} {
		var corpus struct {
			Scenarios []conflictScenario `json:"scenarios"`
		}
		readJSONFile(t, filepath.Join(dir, part+".json"), &corpus)
		var agree, onPurpose, differ int
		var diffs, notRaced []string
		for _, sc := range corpus.Scenarios {
			if seen[sc.Name] {
				t.Fatalf("%s: scenario %q twice in the corpus", part, sc.Name)
			}
			seen[sc.Name] = true
			want, ok := spark.Scenarios[sc.Name]
			if !ok {
				t.Errorf("%s: %q has no result in spark.json: run scripts/interop/conflict_rules.py", part, sc.Name)
				continue
			}
			if strings.HasPrefix(want, "winner failed") {
				// Spark refused the winner: there is no verdict to compare.
				notRaced = append(notRaced, sc.Name+" ("+want+")")
				continue
			}
			t.Run(part+"/"+sc.Name, func(t *testing.T) {
				got := raceScenario(t, sc)
				switch {
				case sc.Ours != nil && got == *sc.Ours && want != got:
					onPurpose++
				case sc.Ours != nil:
					differ++
					diffs = append(diffs, sc.Name)
					t.Errorf("ours %q (documented %q), Spark %q: %s (%s)", verdict(got), verdict(*sc.Ours), verdict(want), sc.Why, sc.Cite)
				case got == want:
					agree++
				default:
					differ++
					diffs = append(diffs, sc.Name)
					t.Errorf("ours %q, Spark %q (%s)", verdict(got), verdict(want), sc.Cite)
				}
			})
		}
		t.Logf("%s: %d scenarios vs %s: %d agree, %d differ on purpose, %d differ %q, %d not raced by Spark %q",
			part, len(corpus.Scenarios), spark.Engine, agree, onPurpose, differ, diffs, len(notRaced), notRaced)
	}
	for name := range spark.Scenarios {
		if !seen[name] {
			t.Errorf("spark.json has %q, which no corpus file holds", name)
		}
	}
}

func verdict(s string) string {
	if s == "" {
		return "committed"
	}
	return s
}
