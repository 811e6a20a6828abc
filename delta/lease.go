package delta

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
)

// Table leases. Spark's commits to a table in a bucket are not
// conditional: Delta checks that _delta_log/<v>.json is absent (a HEAD),
// then PUTs it without If-None-Match, so a commit another writer makes in
// between is overwritten (measured: docs/object-storage.md). Nothing in
// the commit protocol can exclude such a writer, so the workbench keeps
// its own writers away from a bucket table while a Spark-engine run
// writes it:
//
//   - A Spark-engine run takes the table's lease, the object
//     _laktory/lease.json beside its _delta_log, before its first write
//     to the table: created with If-None-Match: *, naming its owner and
//     an expiry (TTL ahead), renewed every TTL/3 with If-Match (the ETag
//     it last wrote), released at the end of the run (replaced, with
//     If-Match, by a record marked released). A lease not renewed by its
//     expiry is free: the next run takes it over with If-Match, so of two
//     runs taking over one lease only one wins.
//   - Every workbench commit to a bucket table (and a DROP) first writes a
//     marker of its own under _laktory/commits/, then reads the lease: a
//     live lease of another owner refuses the commit (ErrLeaseHeld, naming
//     the holder and its expiry), before anything is visible. The marker
//     is deleted once the commit file is written (or refused).
//   - A run that has just taken the lease lists the markers and waits
//     until every marker it saw is gone, or has stood for commitMarkerTTL
//     since it first saw it (the marker of a killed writer).
//
// On a store whose writes, reads and listings are linearizable (S3 since
// December 2020), the marker-then-lease and lease-then-markers orders make
// the two exclusive: a commit that read no lease wrote its marker before
// the lease existed, so the run that took the lease sees its marker and
// waits for its commit. What remains: a commit whose PUT reaches the
// server more than commitMarkerTTL after its marker (the workbench does
// not start a PUT more than commitMarkerTTL/3 after it, and gives the PUT
// commitMarkerTTL/3), clocks further apart than TTL*2/3 (a lease's expiry
// is read against the reader's clock), and a Spark statement of a run
// whose lease was lost or expired (a killed workbench whose Spark server
// goes on) still committing. Writers that know no lease (a deployed Spark
// job, delta-rs) are not excluded at all.

// LeaseKey is the key of a table's lease, relative to the table's root.
const LeaseKey = "_laktory/lease.json"

// commitMarkerDir holds the markers of workbench commits in flight.
const commitMarkerDir = "_laktory/commits"

// DefaultLeaseTTL is how long a lease lasts unless renewed.
const DefaultLeaseTTL = 60 * time.Second

// commitMarkerTTL bounds how long a lease holder waits for a commit
// marker (a killed writer's stays behind).
var commitMarkerTTL = 60 * time.Second

var (
	// ErrLeaseHeld: another run holds the table's lease.
	ErrLeaseHeld = errors.New("the table is leased by another run")
	// ErrLeaseLost: a lease could not be renewed, or was taken over.
	ErrLeaseLost = errors.New("the table's lease was lost")
)

// LeaseOwner names who holds a lease.
type LeaseOwner struct {
	Host      string `json:"host"`
	Workspace string `json:"workspace"`
	PID       int    `json:"pid"`
	// Run says what holds it ("run 12 on the Spark engine").
	Run string `json:"run,omitempty"`
}

func (o LeaseOwner) String() string {
	s := fmt.Sprintf("the workspace %s on %s (pid %d)", o.Workspace, o.Host, o.PID)
	if o.Run != "" {
		s = o.Run + " of " + s
	}
	return s
}

// LeaseRecord is the body of a lease object.
type LeaseRecord struct {
	// ID is random per holding: a renewal or release replaces only the
	// holding it belongs to.
	ID         string     `json:"id"`
	Owner      LeaseOwner `json:"owner"`
	AcquiredAt time.Time  `json:"acquired_at"`
	RenewedAt  time.Time  `json:"renewed_at"`
	ExpiresAt  time.Time  `json:"expires_at"`
	Released   bool       `json:"released,omitempty"`
}

// Live reports whether the lease holds at now.
func (r LeaseRecord) Live(now time.Time) bool { return !r.Released && now.Before(r.ExpiresAt) }

// LeaseOptions tune AcquireLease.
type LeaseOptions struct {
	// TTL is how long the lease lasts unless renewed (DefaultLeaseTTL).
	TTL time.Duration
	// TakeOver takes a live lease of another owner at once, instead of
	// waiting for its expiry (the user says its holder is gone).
	TakeOver bool
	// Notify receives what acquiring waits for or takes over.
	Notify func(msg string)
	// OnLost is called once, from the renewal, when the lease is lost.
	OnLost func(err error)
	// Poll is the pause between two looks while waiting (TTL/30).
	Poll time.Duration
	// Now is the clock (time.Now).
	Now func() time.Time
}

// Lease is a lease held on a table.
type Lease struct {
	root  string
	st    ConditionalStore
	opts  LeaseOptions
	mu    sync.Mutex
	rec   LeaseRecord
	etag  string
	err   error
	stop  chan struct{}
	done  chan struct{}
	lost  chan struct{}
	taken *LeaseRecord
}

// Root is the table the lease is on.
func (l *Lease) Root() string { return l.root }

// Record is the lease as last written.
func (l *Lease) Record() LeaseRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rec
}

// TookOver is the holding this lease replaced while it was live or
// expired (nil when the lease was free or released).
func (l *Lease) TookOver() *LeaseRecord { return l.taken }

// Lost is closed when the lease is lost; Err then says why.
func (l *Lease) Lost() <-chan struct{} { return l.lost }

// Err is why the lease was lost (nil while it holds).
func (l *Lease) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

func (o *LeaseOptions) defaults() {
	if o.TTL <= 0 {
		o.TTL = DefaultLeaseTTL
	}
	if o.Poll <= 0 {
		o.Poll = max(o.TTL/30, 10*time.Millisecond)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Notify == nil {
		o.Notify = func(string) {}
	}
}

func leaseStore(ctx context.Context, root string) (ConditionalStore, error) {
	st, err := storeFor(ctx, root)
	if err != nil {
		return nil, err
	}
	cs, ok := st.(ConditionalStore)
	if !ok {
		return nil, fmt.Errorf("%w: %s cannot hold a lease: its store has no conditional replace", ErrPutIfAbsentUnsupported, root)
	}
	if err := CheckWritable(st); err != nil {
		return nil, err
	}
	return cs, nil
}

// AcquireLease takes the lease of the table at root (a bucket table) for
// owner. A lease another owner holds is waited for until its expiry and
// then taken over, unless it is renewed meanwhile (its holder is alive:
// ErrLeaseHeld, naming it) or opts.TakeOver takes it at once. Once held,
// it waits for the workbench commits in flight (their markers), renews
// the lease every TTL/3 until Release, and calls opts.OnLost if a renewal
// finds it taken over or cannot renew it before it expires.
func AcquireLease(ctx context.Context, root string, owner LeaseOwner, opts LeaseOptions) (*Lease, error) {
	opts.defaults()
	root, err := normalizeRoot(root)
	if err != nil {
		return nil, err
	}
	st, err := leaseStore(ctx, root)
	if err != nil {
		return nil, err
	}
	l := &Lease{root: root, st: st, opts: opts, stop: make(chan struct{}), done: make(chan struct{}), lost: make(chan struct{})}
	now := opts.Now().UTC()
	l.rec = LeaseRecord{ID: uuid.NewString(), Owner: owner, AcquiredAt: now, RenewedAt: now, ExpiresAt: now.Add(opts.TTL)}
	seen := ""
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		body, _ := json.Marshal(l.rec)
		tag, err := st.PutVersion(ctx, LeaseKey, body, "")
		if err == nil {
			l.etag = tag
			break
		}
		if !errors.Is(err, ErrObjectExists) {
			return nil, fmt.Errorf("the lease %s: %w", st.URI(LeaseKey), err)
		}
		data, curTag, err := st.GetVersion(ctx, LeaseKey)
		if errors.Is(err, ErrObjectNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("the lease %s: %w", st.URI(LeaseKey), err)
		}
		cur, err := parseLease(st, data)
		if err != nil {
			return nil, err
		}
		now := opts.Now().UTC()
		if cur.Live(now) && !opts.TakeOver {
			if seen != "" && seen != curTag {
				return nil, fmt.Errorf("%w: %s is leased by %s since %s, renewed at %s, until %s: it is writing the table (a Spark-engine run); run again when it is done, or, if it is not running any more, run with --take-lease",
					ErrLeaseHeld, root, cur.Owner, cur.AcquiredAt.Format(time.RFC3339), cur.RenewedAt.Format(time.RFC3339), cur.ExpiresAt.Format(time.RFC3339))
			}
			if seen == "" {
				opts.Notify(fmt.Sprintf("waiting for the lease of %s, held by %s since %s: it expires at %s unless renewed (a run killed holding it); --take-lease takes it at once",
					root, cur.Owner, cur.AcquiredAt.Format(time.RFC3339), cur.ExpiresAt.Format(time.RFC3339)))
			}
			seen = curTag
			if err := sleepCtx(ctx, min(opts.Poll, max(cur.ExpiresAt.Sub(now), time.Millisecond))); err != nil {
				return nil, err
			}
			continue
		}
		now = opts.Now().UTC()
		l.rec.AcquiredAt, l.rec.RenewedAt, l.rec.ExpiresAt = now, now, now.Add(opts.TTL)
		body, _ = json.Marshal(l.rec)
		tag, err = st.PutVersion(ctx, LeaseKey, body, curTag)
		if errors.Is(err, ErrObjectChanged) {
			seen = ""
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("the lease %s: %w", st.URI(LeaseKey), err)
		}
		l.etag = tag
		if !cur.Released {
			c := cur
			l.taken = &c
			how := "it expired at " + cur.ExpiresAt.Format(time.RFC3339)
			if cur.Live(now) {
				how = "--take-lease; it was to expire at " + cur.ExpiresAt.Format(time.RFC3339)
			}
			opts.Notify(fmt.Sprintf("took over the lease of %s from %s (%s)", root, cur.Owner, how))
		}
		break
	}
	go l.renew()
	FailPoint(FailLeaseAcquired)
	if err := l.waitCommits(ctx); err != nil {
		l.Release(context.WithoutCancel(ctx)) //nolint:errcheck // the wait's error says more
		return nil, err
	}
	return l, nil
}

// waitCommits waits until the workbench commits in flight on the table
// (their markers) are done, or their markers have stood commitMarkerTTL
// since first seen (deleted then: a killed writer's).
func (l *Lease) waitCommits(ctx context.Context) error {
	firstSeen := map[string]time.Time{}
	told := false
	for {
		objs, err := l.st.List(ctx, commitMarkerDir, ListOptions{})
		if err != nil {
			return fmt.Errorf("the commits in flight on %s: %w", l.root, err)
		}
		pending := 0
		for _, o := range objs {
			first, ok := firstSeen[o.Key]
			if !ok {
				first = time.Now()
				firstSeen[o.Key] = first
			}
			if time.Since(first) >= commitMarkerTTL {
				l.st.Delete(ctx, o.Key) //nolint:errcheck // best effort: a stale marker excludes nothing once waited for
				continue
			}
			pending++
		}
		if pending == 0 {
			return nil
		}
		if !told {
			told = true
			l.opts.Notify(fmt.Sprintf("waiting for %d workbench commit(s) in flight on %s", pending, l.root))
		}
		if err := sleepCtx(ctx, l.opts.Poll); err != nil {
			return err
		}
		if err := l.Err(); err != nil {
			return err
		}
	}
}

// renew renews the lease every TTL/3 until Release or its loss.
func (l *Lease) renew() {
	defer close(l.done)
	ttl := l.opts.TTL
	next := ttl / 3
	for {
		select {
		case <-l.stop:
			return
		case <-time.After(next):
		}
		l.mu.Lock()
		rec, etag := l.rec, l.etag
		l.mu.Unlock()
		now := l.opts.Now().UTC()
		rec.RenewedAt, rec.ExpiresAt = now, now.Add(ttl)
		body, _ := json.Marshal(rec)
		ctx, cancel := context.WithTimeout(context.Background(), ttl/3)
		tag, err := l.renewOnce(ctx, body, etag, rec.ID)
		cancel()
		if err == nil {
			l.mu.Lock()
			l.rec, l.etag = rec, tag
			l.mu.Unlock()
			next = ttl / 3
			continue
		}
		l.mu.Lock()
		last := l.rec
		l.mu.Unlock()
		if errors.Is(err, ErrObjectChanged) || !l.opts.Now().Add(ttl/6).Before(last.ExpiresAt) {
			l.lose(fmt.Errorf("%w: %s: %w (renewed last at %s, expiring at %s)", ErrLeaseLost, l.st.URI(LeaseKey), err,
				last.RenewedAt.Format(time.RFC3339), last.ExpiresAt.Format(time.RFC3339)))
			return
		}
		next = max(ttl/30, 10*time.Millisecond)
	}
}

// renewOnce replaces the lease with body if it is still etag; a renewal
// whose answer was lost (the ETag changed, the holding is ours) is
// settled by reading the lease back.
func (l *Lease) renewOnce(ctx context.Context, body []byte, etag, id string) (string, error) {
	if h := leaseRenewHook.Load(); h != nil {
		if err := (*h)(l); err != nil {
			return "", err
		}
	}
	tag, err := l.st.PutVersion(ctx, LeaseKey, body, etag)
	if !errors.Is(err, ErrObjectChanged) {
		return tag, err
	}
	data, cur, gerr := l.st.GetVersion(ctx, LeaseKey)
	if gerr != nil {
		if errors.Is(gerr, ErrObjectNotFound) {
			return "", fmt.Errorf("the lease was removed: %w", ErrObjectChanged)
		}
		return "", gerr
	}
	rec, perr := parseLease(l.st, data)
	if perr != nil || rec.ID != id {
		return "", fmt.Errorf("taken over by %s: %w", rec.Owner, ErrObjectChanged)
	}
	return l.st.PutVersion(ctx, LeaseKey, body, cur)
}

// leaseRenewHook, set by tests, fails renewals.
var leaseRenewHook atomic.Pointer[func(*Lease) error]

func (l *Lease) lose(err error) {
	l.mu.Lock()
	if l.err != nil {
		l.mu.Unlock()
		return
	}
	l.err = err
	l.mu.Unlock()
	close(l.lost)
	if l.opts.OnLost != nil {
		l.opts.OnLost(err)
	}
}

// Release stops renewing and marks the lease released (If-Match: a lease
// taken over meanwhile is left to its new holder). It returns the loss,
// if the lease was lost before.
func (l *Lease) Release(ctx context.Context) error {
	select {
	case <-l.stop:
		return l.Err()
	default:
	}
	close(l.stop)
	<-l.done
	if err := l.Err(); err != nil {
		return err
	}
	l.mu.Lock()
	rec, etag := l.rec, l.etag
	l.mu.Unlock()
	now := l.opts.Now().UTC()
	rec.Released, rec.ExpiresAt = true, now
	body, _ := json.Marshal(rec)
	_, err := l.st.PutVersion(ctx, LeaseKey, body, etag)
	if errors.Is(err, ErrObjectChanged) {
		return fmt.Errorf("%w: %s was taken over before it was released", ErrLeaseLost, l.st.URI(LeaseKey))
	}
	if err != nil {
		return fmt.Errorf("releasing the lease %s: %w", l.st.URI(LeaseKey), err)
	}
	return nil
}

func parseLease(st Store, data []byte) (LeaseRecord, error) {
	var r LeaseRecord
	if err := json.Unmarshal(data, &r); err != nil || r.ID == "" {
		return r, fmt.Errorf("%w: the lease %s is not one the workbench wrote (%q): delete it", ErrLeaseHeld, st.URI(LeaseKey), truncateBytes(data, 200))
	}
	return r, nil
}

func truncateBytes(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Leases is the set of leases a run holds: a commit made under a context
// carrying it (WithLeases) is the holder's own and is not refused by its
// lease.
type Leases struct {
	mu    sync.Mutex
	roots map[string]*Lease
}

// Add records l as held.
func (s *Leases) Add(l *Lease) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.roots == nil {
		s.roots = map[string]*Lease{}
	}
	s.roots[l.root] = l
}

// Get is the lease held on root (nil when none).
func (s *Leases) Get(root string) *Lease {
	if s == nil {
		return nil
	}
	root, err := normalizeRoot(root)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.roots[root]
}

// All is every lease of the set.
func (s *Leases) All() []*Lease {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Lease
	for _, l := range s.roots {
		out = append(out, l)
	}
	return out
}

type leasesKey struct{}

// WithLeases makes the commits under ctx those of the holder of leases.
func WithLeases(ctx context.Context, leases *Leases) context.Context {
	return context.WithValue(ctx, leasesKey{}, leases)
}

func leasesOf(ctx context.Context) *Leases {
	s, _ := ctx.Value(leasesKey{}).(*Leases)
	return s
}

// commitGate is what a workbench writer does before it commits to (or
// drops) the bucket table at root: it writes a marker of its own under
// _laktory/commits/, then reads the lease; a live lease of another run
// refuses the write (ErrLeaseHeld). done deletes the marker once the
// commit file is written or refused. A writer holding the table's lease
// itself (its context's Leases) skips both: the lease already excludes
// the others. deadline is when the commit's PUT must be over for the
// marker to cover it.
func commitGate(ctx context.Context, st Store, root string) (done func(), deadline time.Time, err error) {
	if leasesOf(ctx).Get(root) != nil {
		return func() {}, time.Time{}, nil
	}
	start := time.Now()
	marker := commitMarkerDir + "/" + uuid.NewString() + ".json"
	body := fmt.Sprintf(`{"started_at":%q}`, start.UTC().Format(time.RFC3339Nano))
	if err := st.Put(ctx, marker, strings.NewReader(body), int64(len(body))); err != nil {
		return nil, time.Time{}, fmt.Errorf("the commit marker %s: %w", st.URI(marker), err)
	}
	done = func() { st.Delete(context.WithoutCancel(ctx), marker) } //nolint:errcheck // a stale marker delays a lease holder by commitMarkerTTL at most
	data, err := st.Get(ctx, LeaseKey)
	switch {
	case errors.Is(err, ErrObjectNotFound):
	case err != nil:
		done()
		return nil, time.Time{}, fmt.Errorf("the lease %s: %w", st.URI(LeaseKey), err)
	default:
		rec, err := parseLease(st, data)
		if err != nil {
			done()
			return nil, time.Time{}, err
		}
		if rec.Live(time.Now()) {
			done()
			return nil, time.Time{}, fmt.Errorf("%w: %s is leased by %s until %s (renewed at %s): a Spark-engine run is writing it, whose commits are not conditional and would overwrite this one; nothing was written: run again when that run is over",
				ErrLeaseHeld, root, rec.Owner, rec.ExpiresAt.Format(time.RFC3339), rec.RenewedAt.Format(time.RFC3339))
		}
	}
	if time.Since(start) > commitMarkerTTL/3 {
		done()
		return nil, time.Time{}, fmt.Errorf("%w: %s: the lease check took %s, longer than %s: the commit would not be covered by its marker; try again",
			ErrLeaseHeld, root, time.Since(start).Round(time.Millisecond), commitMarkerTTL/3)
	}
	return done, start.Add(commitMarkerTTL * 2 / 3), nil
}
