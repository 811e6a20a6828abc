package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// s3Scenario is a scenario of the bucket lake corpus
// (testdata/s3corpus/NAME/steps.json beside its workspace, ws/): steps run
// on a local lake and on a lake in a bucket, then compared.
type s3Scenario struct {
	// Part is "development" or "held-out" (written and committed before
	// it was first run).
	Part string `json:"part"`
	// What the scenario covers.
	About string `json:"about"`
	// Tables compared after each step; Files are workspace files (a
	// ForEach writer's output) compared as sorted lines.
	Tables []string `json:"tables"`
	Files  []string `json:"files"`
	Steps  []struct {
		Name string `json:"name"`
		// Write adds or replaces workspace files before the run (landing
		// files, an edited pipeline).
		Write map[string]string `json:"write"`
		Run   Request           `json:"run"`
	} `json:"steps"`
}

// TestS3LakeCorpus runs each scenario of testdata/s3corpus on a local lake
// and on a lake in a bucket of the test's moto server, step by step: the
// same plans refused with the same codes, the same task statuses, rows
// written and deleted, tables (existence, version, rows by our reader)
// and files; after every step delta-rs reads each table from the bucket
// with the rows and version it reads from the local lake. -v logs each
// scenario's part (development or held out) and its requests.
func TestS3LakeCorpus(t *testing.T) {
	needDeltaRS(t)
	dirs, err := filepath.Glob(filepath.Join("testdata", "s3corpus", "*", "steps.json"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	srv := newS3Lake(t, t.TempDir()).srv // the server and the object cache
	for _, f := range dirs {
		name := filepath.Base(filepath.Dir(f))
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var sc s3Scenario
			if err := json.Unmarshal(b, &sc); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			runS3Scenario(t, srv.Bucket(t), filepath.Join(filepath.Dir(f), "ws"), sc)
		})
	}
}

func runS3Scenario(t *testing.T, bucket, src string, sc s3Scenario) {
	localDir, remoteDir := t.TempDir(), t.TempDir()
	for _, d := range []string{localDir, remoteDir} {
		if err := os.CopyFS(d, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
	}
	lake := "s3://" + bucket + "/lake"
	workspacetest.Write(t, remoteDir, map[string]string{workspace.ConfigFileName: "lake: " + lake + "\n"})
	rl, rr := testRunner(t), testRunner(t)
	before := delta.RemoteStats()
	for i, st := range sc.Steps {
		name := fmt.Sprintf("step %d (%s)", i+1, st.Name)
		workspacetest.Write(t, localDir, st.Write)
		workspacetest.Write(t, remoteDir, st.Write)
		lsnap := workspacetest.LoadDir(t, localDir, workspace.Options{})
		rsnap := workspacetest.LoadDir(t, remoteDir, workspace.Options{})
		if rsnap.Layout.Lake != lake {
			t.Fatalf("the lake is %q, want %q", rsnap.Layout.Lake, lake)
		}
		lo, lerr := planAndRun(t, rl, lsnap, st.Run)
		ro, rerr := planAndRun(t, rr, rsnap, st.Run)
		if lc, rc := planCodes(lerr), planCodes(rerr); lc != rc {
			t.Fatalf("%s: plan refused with %q locally, %q on the bucket (%v / %v)", name, lc, rc, lerr, rerr)
		}
		if lerr != nil {
			t.Logf("%s: refused on both lakes: %s", name, planCodes(lerr))
			continue
		}
		if got, want := taskStatuses(ro.sum), taskStatuses(lo.sum); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: tasks %v on the bucket, %v locally\n bucket errors: %s\n local errors: %s", name, got, want, taskErrors(ro.sum), taskErrors(lo.sum))
		}
		if lo.sum.RowsWritten != ro.sum.RowsWritten || lo.sum.RowsDeleted != ro.sum.RowsDeleted {
			t.Fatalf("%s: local wrote %d and deleted %d rows, the bucket's run %d and %d", name, lo.sum.RowsWritten, lo.sum.RowsDeleted, ro.sum.RowsWritten, ro.sum.RowsDeleted)
		}
		var uris []string
		for _, table := range sc.Tables {
			lp := (&ws{t: t, dir: localDir}).table(table)
			rp := rsnap.Layout.TablePath(workspace.ParseTableName(table, "", ""))
			if exists(lp) != remoteExists(t, rp) {
				t.Fatalf("%s: table %s exists locally: %v, in the bucket: %v", name, table, exists(lp), !exists(lp))
			}
			if !exists(lp) {
				continue
			}
			if lv, rv := version(t, lp), version(t, rp); lv != rv {
				t.Fatalf("%s: %s is at version %d in the bucket, %d locally", name, table, rv, lv)
			}
			if got, want := s3TableRows(t, rr, rp), s3TableRows(t, rl, lp); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %s in the bucket differs from the local run:\n got %v\nwant %v", name, table, got, want)
			}
			uris = append(uris, lp, rp)
		}
		for _, f := range sc.Files {
			if got, want := sortedLines(t, filepath.Join(remoteDir, f)), sortedLines(t, filepath.Join(localDir, f)); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %s differs:\n bucket's workspace %q\n local %q", name, f, got, want)
			}
		}
		if len(uris) > 0 {
			got := deltaRSTables(t, uris...)
			for j := 0; j < len(got); j += 2 {
				l, r := got[j], got[j+1]
				if l.Version != r.Version || !reflect.DeepEqual(l.Columns, r.Columns) || !reflect.DeepEqual(l.Rows, r.Rows) {
					t.Fatalf("%s: delta-rs reads %s as v%d %v %v in the bucket, v%d %v %v locally", name, uris[j+1], r.Version, r.Columns, r.Rows, l.Version, l.Columns, l.Rows)
				}
			}
		}
		now := delta.RemoteStats()
		t.Logf("%s: %d rows written, %d deleted, %d of %d tasks failed on both; %s", name, ro.sum.RowsWritten, ro.sum.RowsDeleted, ro.sum.Failed(), len(ro.sum.Tasks), now.Sub(before))
		before = now
		if ro.sum.Failed() > 0 {
			t.Logf("%s: failed on both lakes:%s", name, taskErrors(ro.sum))
		}
	}
	for _, f := range sc.Files {
		if sortedLines(t, filepath.Join(localDir, f)) == nil {
			t.Errorf("%s was never written: the scenario compares nothing", f)
		}
	}
	noLocalLake(t, remoteDir)
	t.Logf("%s scenario: %s: the same on both lakes", sc.Part, sc.About)
}

// planAndRun plans and runs req; a refused plan is returned as its error.
func planAndRun(t *testing.T, r *Runner, snap *workspace.Snapshot, req Request) (outcome, error) {
	t.Helper()
	plan, err := r.Plan(context.Background(), snap, req)
	if err != nil {
		return outcome{}, err
	}
	return start(t, r, plan), nil
}

// planCodes are the codes of a refused plan's errors, sorted ("" for none).
func planCodes(err error) string {
	if err == nil {
		return ""
	}
	var pe *PlanError
	if !errors.As(err, &pe) {
		return "error: " + err.Error()
	}
	var codes []string
	for _, d := range pe.Diagnostics {
		if d.Severity == workspace.SeverityError {
			codes = append(codes, d.Code)
		}
	}
	slices.Sort(codes)
	return strings.Join(slices.Compact(codes), ",")
}

func taskStatuses(s Summary) map[string]string {
	m := map[string]string{}
	for _, ts := range s.Tasks {
		m[ts.Key] = string(ts.Status)
	}
	return m
}

func taskErrors(s Summary) string {
	var b strings.Builder
	for _, ts := range s.Tasks {
		if ts.Err != "" {
			fmt.Fprintf(&b, "\n  %s: %s", ts.Key, ts.Err)
		}
	}
	return b.String()
}

// sortedLines are a file's lines, sorted (nil when it does not exist).
func sortedLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	sort.Strings(lines)
	return lines
}
