package runner

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// heldEngine is a (fake) Spark engine whose first transaction on a path
// containing `on` waits, once it is begun (the task has taken its locks
// and leases), until release is closed or the run is cancelled.
type heldEngine struct {
	engine.Engine
	on      string
	begun   chan struct{}
	release chan struct{}
	once    sync.Once
}

func (e *heldEngine) Open(ctx context.Context) (engine.Session, error) {
	s, err := e.Engine.Open(ctx)
	return &heldSession{Session: s, e: e}, err
}

type heldSession struct {
	engine.Session
	e *heldEngine
}

func (s *heldSession) Begin(ctx context.Context, path string, snap *delta.Snapshot, def delta.TableDefinition, opts delta.WriteOptions) (engine.Txn, error) {
	if strings.Contains(path, s.e.on) {
		first := false
		s.e.once.Do(func() { first = true })
		if first {
			close(s.e.begun)
			select {
			case <-s.e.release:
			case <-ctx.Done():
				return nil, context.Cause(ctx)
			}
		}
	}
	return s.Session.Begin(ctx, path, snap, def, opts)
}

func leaseOf(t *testing.T, table string) delta.LeaseRecord {
	t.Helper()
	st, err := delta.OpenStore(context.Background(), table, delta.StoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.Get(context.Background(), delta.LeaseKey)
	if err != nil {
		t.Fatal(err)
	}
	var r delta.LeaseRecord
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func notes(o outcome) string {
	var out []string
	for _, e := range o.events {
		if e.Message != "" {
			out = append(out, e.Message)
		}
	}
	return strings.Join(out, "\n")
}

// TestS3LakeLease: a Spark-engine run (here a fake one, which commits
// through the local engine under its lease) holds the lease of the bucket
// table it writes, all_orders, from before its first write to its end. A
// local run of the other writer of all_orders from another workspace
// while it holds it is refused, every time, naming the Spark run and the
// expiry, and changes nothing; so is a second Spark-engine run, once it
// sees the lease renewed. After the Spark run both writers' rows are exact
// and the lease is released; the refused runs then succeed.
func TestS3LakeLease(t *testing.T) {
	a, b := workspacetest.Demo(t), workspacetest.Demo(t)
	s3 := newS3Lake(t, a)
	workspacetest.Write(t, b, map[string]string{workspace.ConfigFileName: "lake: " + s3.lake + "\n"})
	// rc is a Spark-engine runner of workspace b (which claims globex).
	ra, rb, rc := testRunner(t), testRunner(t), testRunner(t)
	sa, sb := workspacetest.LoadDir(t, a, workspace.Options{}), workspacetest.LoadDir(t, b, workspace.Options{})
	mustRun(t, ra, sa, Request{Pipelines: []string{"pl-client-acme"}})
	mustRun(t, rb, sb, Request{Pipelines: []string{"pl-client-globex"}})
	orders := sa.Layout.TablePath(workspace.ParseTableName("all_orders", "", ""))
	version := func() int64 {
		t.Helper()
		s, err := delta.LoadSnapshot(context.Background(), orders)
		if err != nil {
			t.Fatal(err)
		}
		return s.Version()
	}

	held := &heldEngine{Engine: &fakeEngine{Engine: ra.local}, on: "all_orders", begun: make(chan struct{}), release: make(chan struct{})}
	ra.cfg.Engine = sparkBucket{Engine: held}
	// TTLs of seconds: under -race at a load of 30, a renewal (every
	// TTL/3, lost 1/6 TTL before the expiry) can take a second.
	ra.cfg.LeaseTTL = 6 * time.Second
	rc.cfg.Engine = sparkBucket{Engine: &fakeEngine{Engine: rc.local}}
	rc.cfg.LeaseTTL = 6 * time.Second
	sparkDone := make(chan outcome, 1)
	go func() { sparkDone <- run(t, ra, sa, Request{Pipelines: []string{"pl-client-acme"}, Refresh: "FULL"}) }()
	<-held.begun
	lease := leaseOf(t, orders)
	if !lease.Live(time.Now()) || !strings.Contains(lease.Owner.Run, "on the Spark engine (sc://127.0.0.1:15002)") || lease.Owner.Workspace != sa.Dir {
		t.Fatalf("lease while the Spark run writes: %+v", lease)
	}
	before := version()
	for i := range 3 {
		o := run(t, rb, sb, Request{Pipelines: []string{"pl-client-globex"}, Refresh: "FULL"})
		if o.err == nil {
			t.Fatalf("round %d: a local run of globex while the Spark run holds the lease succeeded", i)
		}
		msg := o.sum.Tasks[0].Err
		for _, want := range []string{"leased by run", "on the Spark engine", sa.Dir, "nothing was written"} {
			if !strings.Contains(msg, want) {
				t.Errorf("round %d: refusal %q does not say %q", i, msg, want)
			}
		}
		if v := version(); v != before {
			t.Fatalf("round %d: the refused run committed (version %d -> %d)", i, before, v)
		}
	}
	o := run(t, rc, sb, Request{Pipelines: []string{"pl-client-globex"}})
	if o.err == nil || !strings.Contains(o.sum.Tasks[0].Err, "is leased by run") || !strings.Contains(o.sum.Tasks[0].Err, "--take-lease") {
		t.Fatalf("a second Spark-engine run: %v %+v", o.err, o.sum.Tasks)
	}
	close(held.release)
	so := <-sparkDone
	if so.err != nil {
		t.Fatalf("the Spark run: %v", so.err)
	}
	if rec := leaseOf(t, orders); !rec.Released {
		t.Fatalf("lease after the Spark run: %+v", rec)
	}
	mustRun(t, rb, sb, Request{Pipelines: []string{"pl-client-globex"}, Refresh: "FULL"})
	mustRun(t, rc, sb, Request{Pipelines: []string{"pl-client-globex"}})
	if got := writerCounts(t, ra, orders, "client"); got != "acme=80 globex=80" {
		t.Fatalf("all_orders: %s, want acme=80 globex=80", got)
	}
}

// TestS3LakeLeaseLeftBehind: a lease a killed Spark-engine run left (live,
// never renewed) is waited for until its expiry, then taken over, and the
// run says so; with TakeLease it is taken at once, saying --take-lease. A
// run whose lease is taken over while it runs (its renewal finds it
// replaced) is cancelled and fails naming the loss, before its commit.
func TestS3LakeLeaseLeftBehind(t *testing.T) {
	a := workspacetest.Demo(t)
	newS3Lake(t, a)
	ra := testRunner(t)
	sa := workspacetest.LoadDir(t, a, workspace.Options{})
	mustRun(t, ra, sa, Request{Pipelines: []string{"pl-client-acme"}})
	orders := sa.Layout.TablePath(workspace.ParseTableName("all_orders", "", ""))
	ra.cfg.Engine = sparkBucket{Engine: &fakeEngine{Engine: ra.local}}
	ra.cfg.LeaseTTL = 4 * time.Second
	killed := delta.LeaseOwner{Host: "laptop-2", Workspace: "/elsewhere", PID: 4242, Run: "run 3 on the Spark engine"}
	leaveLease := func() delta.LeaseRecord {
		t.Helper()
		now := time.Now().UTC()
		rec := delta.LeaseRecord{ID: "killed-" + now.String(), Owner: killed, AcquiredAt: now, RenewedAt: now, ExpiresAt: now.Add(8 * time.Second)} // past the run's planning, even under load
		body, _ := json.Marshal(rec)
		st, err := delta.OpenStore(context.Background(), orders, delta.StoreOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Put(context.Background(), delta.LeaseKey, strings.NewReader(string(body)), int64(len(body))); err != nil {
			t.Fatal(err)
		}
		return rec
	}
	left := leaveLease()
	o := mustRun(t, ra, sa, Request{Pipelines: []string{"pl-client-acme"}, Refresh: "FULL"})
	n := notes(o)
	if !strings.Contains(n, "waiting for the lease") || !strings.Contains(n, "run 3 on the Spark engine of the workspace /elsewhere on laptop-2") ||
		!strings.Contains(n, "took over the lease") || !strings.Contains(n, "expired at "+left.ExpiresAt.Format(time.RFC3339)) {
		t.Fatalf("notes of the run after a killed one:\n%s", n)
	}
	if o.sum.EndedAt.Before(left.ExpiresAt.Truncate(time.Millisecond)) {
		t.Fatalf("the run ended at %s, before the left lease's expiry %s", o.sum.EndedAt, left.ExpiresAt)
	}
	leaveLease()
	o = mustRun(t, ra, sa, Request{Pipelines: []string{"pl-client-acme"}, Refresh: "FULL", TakeLease: true})
	if n := notes(o); strings.Contains(n, "waiting for the lease") || !strings.Contains(n, "took over the lease") || !strings.Contains(n, "--take-lease") {
		t.Fatalf("notes with TakeLease:\n%s", n)
	}

	// Taken over mid-run.
	held := &heldEngine{Engine: &fakeEngine{Engine: ra.local}, on: "all_orders", begun: make(chan struct{}), release: make(chan struct{})}
	ra.cfg.Engine = sparkBucket{Engine: held}
	done := make(chan outcome, 1)
	go func() { done <- run(t, ra, sa, Request{Pipelines: []string{"pl-client-acme"}, Refresh: "FULL"}) }()
	<-held.begun
	before, _ := delta.LoadSnapshot(context.Background(), orders)
	thief, err := delta.AcquireLease(context.Background(), orders, killed, delta.LeaseOptions{TakeOver: true, TTL: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer thief.Release(context.Background()) //nolint:errcheck
	select {
	case o = <-done:
	case <-time.After(10 * time.Second):
		close(held.release)
		o = <-done
		t.Fatal("the run whose lease was taken over went on")
	}
	if o.err == nil || !errors.Is(o.err, ErrTasksFailed) || !strings.Contains(o.sum.Err, "lease was lost") || !strings.Contains(o.sum.Err, "run 3 on the Spark engine") {
		t.Fatalf("run that lost its lease: %v, %q", o.err, o.sum.Err)
	}
	after, _ := delta.LoadSnapshot(context.Background(), orders)
	if after.Version() != before.Version() {
		t.Fatalf("the run that lost its lease committed: %d -> %d", before.Version(), after.Version())
	}
}
