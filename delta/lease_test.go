package delta

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/laktory/workbench/delta/s3test"
)

// leaseTable is a bucket table of 3 rows for the lease tests.
func leaseTable(t *testing.T) (root string, srv *s3test.Server) {
	t.Helper()
	srv = s3test.Shared(t)
	srv.Setenv(t)
	SetObjectCache(&ObjectCache{Dir: t.TempDir()})
	t.Cleanup(func() { SetObjectCache(nil) })
	root = "s3://" + srv.Bucket(t) + "/lake/t"
	db := writeTestDB(t)
	mustCreate(t, db, root, "SELECT i::BIGINT AS id FROM range(0, 3) r(i)", nil, nil)
	mustAppend(t, db, root, "SELECT i::BIGINT AS id FROM range(0, 3) r(i)")
	return root, srv
}

func owner(run string) LeaseOwner {
	return LeaseOwner{Host: "test-host", Workspace: "/ws/" + run, PID: os.Getpid(), Run: run}
}

// readLease is the lease object of root as stored.
func readLease(t *testing.T, root string) LeaseRecord {
	t.Helper()
	st, err := storeFor(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.Get(context.Background(), LeaseKey)
	if err != nil {
		t.Fatal(err)
	}
	var r LeaseRecord
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func markers(t *testing.T, root string) []ObjectInfo {
	t.Helper()
	st, err := storeFor(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := st.List(context.Background(), commitMarkerDir, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// TestS3LeaseRefusesCommits: while a run holds a bucket table's lease,
// a workbench append, delete or DROP without it is refused before
// anything is visible (ErrLeaseHeld, naming the holder and the expiry; no
// data file left, no marker left); the holder's own commits (its
// context's Leases) go through; once released, anyone commits again.
func TestS3LeaseRefusesCommits(t *testing.T) {
	root, _ := leaseTable(t)
	ctx := context.Background()
	db := writeTestDB(t)
	l, err := AcquireLease(ctx, root, owner("run 7 on the Spark engine"), LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rec := readLease(t, root)
	if rec.Released || rec.Owner.Run != "run 7 on the Spark engine" || !rec.Live(time.Now()) {
		t.Fatalf("lease as stored: %+v", rec)
	}
	for _, op := range []struct {
		name string
		do   func(ctx context.Context) error
	}{
		{"append", func(ctx context.Context) error {
			_, err := Append(ctx, db, root, "SELECT 10::BIGINT AS id", WriteOptions{})
			return err
		}},
		{"delete", func(ctx context.Context) error {
			_, err := Delete(ctx, db, root, "id = 1", WriteOptions{})
			return err
		}},
		{"drop", func(ctx context.Context) error {
			return DropTable(ctx, root, NewGuard([]string{strings.TrimSuffix(root, "/t")}))
		}},
	} {
		err := op.do(ctx)
		if !errors.Is(err, ErrLeaseHeld) {
			t.Fatalf("%s under another run's lease: %v, want ErrLeaseHeld", op.name, err)
		}
		for _, want := range []string{"run 7 on the Spark engine", "/ws/run 7 on the Spark engine", rec.ExpiresAt.Format(time.RFC3339), "nothing was written"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: error %q does not say %q", op.name, err, want)
			}
		}
	}
	s := mustSnapshot(t, root)
	if s.Version() != 1 {
		t.Fatalf("version %d after refused writes, want 1", s.Version())
	}
	st, _ := storeFor(ctx, root)
	var orphans []string
	for _, o := range bucketOrphans(t, st, s) {
		if !strings.HasPrefix(o, "_laktory/") {
			orphans = append(orphans, o)
		}
	}
	if o := orphans; len(o) > 0 {
		t.Fatalf("refused writes left data files: %v", o)
	}
	if m := markers(t, root); len(m) > 0 {
		t.Fatalf("refused writes left markers: %v", m)
	}
	var held Leases
	held.Add(l)
	own := WithLeases(ctx, &held)
	if _, err := Append(own, db, root, "SELECT 10::BIGINT AS id", WriteOptions{}); err != nil {
		t.Fatalf("the holder's own append: %v", err)
	}
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if rec := readLease(t, root); !rec.Released || rec.Live(time.Now()) {
		t.Fatalf("released lease as stored: %+v", rec)
	}
	if _, err := Append(ctx, db, root, "SELECT 11::BIGINT AS id", WriteOptions{}); err != nil {
		t.Fatalf("append after release: %v", err)
	}
	if got := tableRows(t, db, root, "id"); strings.Join(got, ",") != "0,1,10,11,2" {
		t.Fatalf("rows %v", got)
	}
	// The lease is not the table's: a DROP keeps it, and a second lease
	// takes the released one over.
	if err := DropTable(ctx, root, NewGuard([]string{strings.TrimSuffix(root, "/t")})); err != nil {
		t.Fatal(err)
	}
	l2, err := AcquireLease(ctx, root, owner("run 8"), LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if l2.TookOver() != nil {
		t.Fatalf("a released lease counted as taken over: %+v", l2.TookOver())
	}
	if err := l2.Release(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestS3LeaseWaitsForCommitInFlight: a workbench commit that passed its
// lease check before the lease existed (its marker written, its PUT not
// yet made) is waited for by the run taking the lease, which returns only
// once that commit stands; a commit checking after the lease exists is
// refused. Both orders, deterministically (a hook holds the commit
// between its check and its PUT).
func TestS3LeaseWaitsForCommitInFlight(t *testing.T) {
	root, _ := leaseTable(t)
	ctx := context.Background()
	db := writeTestDB(t)
	gated, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	hook := func(r string) {
		if r == root {
			once.Do(func() { close(gated) })
			<-release
		}
	}
	commitGatedHook.Store(&hook)
	t.Cleanup(func() { commitGatedHook.Store(nil) })
	appended := make(chan error, 1)
	go func() {
		_, err := Append(ctx, db, root, "SELECT 20::BIGINT AS id", WriteOptions{})
		appended <- err
	}()
	<-gated
	if m := markers(t, root); len(m) != 1 {
		t.Fatalf("markers of the commit in flight: %v", m)
	}
	waiting := make(chan string, 4)
	acquired := make(chan *Lease, 1)
	go func() {
		l, err := AcquireLease(ctx, root, owner("spark run"), LeaseOptions{Notify: func(m string) { waiting <- m }})
		if err != nil {
			t.Error(err)
		}
		acquired <- l
	}()
	msg := <-waiting
	if !strings.Contains(msg, "waiting for 1 workbench commit(s) in flight") {
		t.Fatalf("notice %q", msg)
	}
	select {
	case <-acquired:
		t.Fatal("the lease was acquired while a commit was in flight")
	case <-time.After(300 * time.Millisecond):
	}
	commitGatedHook.Store(nil)
	close(release)
	if err := <-appended; err != nil {
		t.Fatalf("the commit in flight: %v", err)
	}
	l := <-acquired
	if l == nil {
		t.FailNow()
	}
	if v := mustSnapshot(t, root).Version(); v != 2 {
		t.Fatalf("version %d, want 2 (the commit in flight stands)", v)
	}
	if m := markers(t, root); len(m) != 0 {
		t.Fatalf("markers left: %v", m)
	}
	// Now the lease is there first: the next commit is refused.
	if _, err := Append(ctx, db, root, "SELECT 21::BIGINT AS id", WriteOptions{}); !errors.Is(err, ErrLeaseHeld) {
		t.Fatalf("append after the lease: %v", err)
	}
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestS3LeaseStaleMarker: the marker of a writer killed between its lease
// check and its PUT is waited for commitMarkerTTL at most, then removed.
func TestS3LeaseStaleMarker(t *testing.T) {
	root, _ := leaseTable(t)
	ctx := context.Background()
	old := commitMarkerTTL
	commitMarkerTTL = 500 * time.Millisecond
	t.Cleanup(func() { commitMarkerTTL = old })
	st, _ := storeFor(ctx, root)
	if err := st.Put(ctx, commitMarkerDir+"/killed.json", strings.NewReader("{}"), 2); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	l, err := AcquireLease(ctx, root, owner("spark run"), LeaseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < commitMarkerTTL {
		t.Fatalf("acquired after %s, before the marker's %s", d, commitMarkerTTL)
	}
	if m := markers(t, root); len(m) != 0 {
		t.Fatalf("stale marker left: %v", m)
	}
	l.Release(ctx) //nolint:errcheck
}

// TestS3LeaseKilledHolder kills a process holding a lease (fail point
// delta.lease.acquired: taken, never renewed nor released). The next run
// waits for its expiry and takes it over, saying so; with TakeOver it
// takes it at once, saying --take-lease.
func TestS3LeaseKilledHolder(t *testing.T) {
	if root := os.Getenv("LAKTORY_LEASE_CHILD"); root != "" {
		AcquireLease(context.Background(), root, owner("killed run"), LeaseOptions{TTL: 2 * time.Second}) //nolint:errcheck
		t.Fatal("not killed at the fail point")
	}
	for _, takeOver := range []bool{false, true} {
		t.Run(fmt.Sprintf("take-over=%v", takeOver), func(t *testing.T) {
			root, _ := leaseTable(t)
			cmd := exec.Command(os.Args[0], "-test.run=^TestS3LeaseKilledHolder$", "-test.count=1")
			cmd.Env = append(os.Environ(), "LAKTORY_LEASE_CHILD="+root, FailPointEnv+"="+FailLeaseAcquired)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != FailPointExit {
				t.Fatalf("child: %v\n%s", err, out)
			}
			held := readLease(t, root)
			if !held.Live(time.Now()) {
				t.Skipf("the killed holder's lease expired before the next run started (load): %+v", held)
			}
			var notes []string
			start := time.Now()
			l, err := AcquireLease(context.Background(), root, owner("next run"), LeaseOptions{TakeOver: takeOver, Notify: func(m string) { notes = append(notes, m) }})
			if err != nil {
				t.Fatal(err)
			}
			waited := time.Since(start)
			if l.TookOver() == nil || l.TookOver().ID != held.ID {
				t.Fatalf("took over %+v, want %+v", l.TookOver(), held)
			}
			all := strings.Join(notes, "\n")
			if takeOver {
				if !strings.Contains(all, "took over the lease") || !strings.Contains(all, "--take-lease") || strings.Contains(all, "waiting") {
					t.Fatalf("notes %q", all)
				}
				if time.Now().After(held.ExpiresAt) && waited > time.Until(held.ExpiresAt)+time.Second {
					t.Fatalf("took %s with TakeOver", waited)
				}
			} else {
				if !strings.Contains(all, "waiting for the lease") || !strings.Contains(all, "killed run") || !strings.Contains(all, "expired at") {
					t.Fatalf("notes %q", all)
				}
				if time.Now().Before(held.ExpiresAt) {
					t.Fatalf("took over at %s, before the expiry %s", time.Now(), held.ExpiresAt)
				}
			}
			if rec := readLease(t, root); rec.Owner.Run != "next run" {
				t.Fatalf("lease now %+v", rec)
			}
			if err := l.Release(context.Background()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestS3LeaseLiveHolder: a live holder's lease (renewed every TTL/3) is
// not taken: the run waiting for it sees it renewed and is refused,
// naming the holder. Of several runs taking over one expired lease at
// once, one wins and the others are refused once the winner renews.
func TestS3LeaseLiveHolder(t *testing.T) {
	root, _ := leaseTable(t)
	ctx := context.Background()
	ttl := 1500 * time.Millisecond
	l, err := AcquireLease(ctx, root, owner("live run"), LeaseOptions{TTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	_, err = AcquireLease(ctx, root, owner("second run"), LeaseOptions{TTL: ttl})
	if !errors.Is(err, ErrLeaseHeld) || !strings.Contains(err.Error(), "live run") || !strings.Contains(err.Error(), "--take-lease") {
		t.Fatalf("second run: %v", err)
	}
	// Kill it in effect: stop renewing without releasing.
	close(l.stop)
	<-l.done
	time.Sleep(time.Until(l.Record().ExpiresAt) + 50*time.Millisecond)
	var wg sync.WaitGroup
	results := make([]error, 4)
	leases := make([]*Lease, 4)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			leases[i], results[i] = AcquireLease(ctx, root, owner(fmt.Sprintf("racer %d", i)), LeaseOptions{TTL: ttl})
		}()
	}
	wg.Wait()
	won := 0
	for i, err := range results {
		switch {
		case err == nil:
			won++
			if leases[i].TookOver() == nil || leases[i].TookOver().ID != l.Record().ID {
				t.Errorf("racer %d took over %+v", i, leases[i].TookOver())
			}
			defer leases[i].Release(ctx) //nolint:errcheck
		case errors.Is(err, ErrLeaseHeld):
		default:
			t.Errorf("racer %d: %v", i, err)
		}
	}
	if won != 1 {
		t.Fatalf("%d racers took the expired lease, want 1: %v", won, results)
	}
}

// TestS3LeaseLost: a holder whose renewals fail is told (OnLost, Lost,
// ErrLeaseLost) before its lease expires; one whose lease another run took
// over (--take-lease) is told at its next renewal, and its release leaves
// the new holder's lease alone.
func TestS3LeaseLost(t *testing.T) {
	root, _ := leaseTable(t)
	ctx := context.Background()
	ttl := 1200 * time.Millisecond
	lostErr := make(chan error, 1)
	l, err := AcquireLease(ctx, root, owner("failing run"), LeaseOptions{TTL: ttl, OnLost: func(err error) { lostErr <- err }})
	if err != nil {
		t.Fatal(err)
	}
	fail := func(*Lease) error { return errors.New("renewal refused (test)") }
	leaseRenewHook.Store(&fail)
	t.Cleanup(func() { leaseRenewHook.Store(nil) })
	select {
	case err := <-lostErr:
		if !errors.Is(err, ErrLeaseLost) || !strings.Contains(err.Error(), "renewal refused (test)") {
			t.Fatalf("lost: %v", err)
		}
		if rec := readLease(t, root); !time.Now().Before(rec.ExpiresAt) {
			t.Fatalf("told at %s, after the expiry %s", time.Now(), rec.ExpiresAt)
		}
	case <-time.After(5 * ttl):
		t.Fatal("the failing renewal was never reported")
	}
	<-l.Lost()
	if !errors.Is(l.Release(ctx), ErrLeaseLost) {
		t.Fatal("release of a lost lease does not say it was lost")
	}
	leaseRenewHook.Store(nil)

	// Taken over.
	time.Sleep(time.Until(l.Record().ExpiresAt))
	a, err := AcquireLease(ctx, root, owner("first"), LeaseOptions{TTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	b, err := AcquireLease(ctx, root, owner("second"), LeaseOptions{TTL: ttl, TakeOver: true})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-a.Lost():
		if !errors.Is(a.Err(), ErrLeaseLost) || !strings.Contains(a.Err().Error(), "second") {
			t.Fatalf("lost: %v", a.Err())
		}
	case <-time.After(2 * ttl):
		t.Fatal("the holder taken over was never told")
	}
	a.Release(ctx) //nolint:errcheck
	if rec := readLease(t, root); rec.Owner.Run != "second" || rec.Released {
		t.Fatalf("lease after the old holder's release: %+v", rec)
	}
	if err := b.Release(ctx); err != nil {
		t.Fatal(err)
	}
}
