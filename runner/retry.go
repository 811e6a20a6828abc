package runner

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"
)

// RetryPolicy says how a commit that conflicts with a concurrent writer is
// retried: up to MaxRetries more attempts, the k-th after
// BaseDelay*2^(k-1) (at most MaxDelay) plus a random jitter, each attempt
// re-planning its operation on the table's new snapshot.
type RetryPolicy struct {
	MaxRetries int
	BaseDelay  time.Duration
	MaxDelay   time.Duration
	// Jitter returns the random part added to a delay d (default: uniform
	// in [0, d/2)). Tests make it deterministic.
	Jitter func(d time.Duration) time.Duration
	// Sleep waits d or until ctx is done (default: a timer). Tests make it
	// instant.
	Sleep func(ctx context.Context, d time.Duration) error
}

// DefaultRetry is the policy of a Runner whose Config leaves Retry zero:
// 5 retries, from 100 ms doubling up to 3 s, plus up to 50% jitter.
var DefaultRetry = RetryPolicy{MaxRetries: 5, BaseDelay: 100 * time.Millisecond, MaxDelay: 3 * time.Second}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxRetries <= 0 {
		p.MaxRetries = DefaultRetry.MaxRetries
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = DefaultRetry.BaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = DefaultRetry.MaxDelay
	}
	if p.Jitter == nil {
		p.Jitter = func(d time.Duration) time.Duration {
			if d <= 1 {
				return 0
			}
			return time.Duration(rand.Int64N(int64(d / 2)))
		}
	}
	if p.Sleep == nil {
		p.Sleep = sleepCtx
	}
	return p
}

// Delay is the wait before retry attempt (1-based), jitter included.
func (p RetryPolicy) Delay(attempt int) time.Duration {
	d := p.BaseDelay
	for i := 1; i < attempt && d < p.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, p.MaxDelay)
	return d + p.Jitter(d)
}

// retry runs op until it succeeds, fails with an error retryable does not
// accept, or has been retried MaxRetries times. Before each retry it calls
// onRetry (attempt from 1, the delay, the error) and sleeps. The final
// conflict is returned wrapped in ErrConflict with the attempt count.
func (p RetryPolicy) retry(ctx context.Context, op func(attempt int) error, retryable func(error) bool,
	onRetry func(attempt int, delay time.Duration, err error)) error {
	for attempt := 0; ; attempt++ {
		err := op(attempt)
		if err == nil || !retryable(err) {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if attempt >= p.MaxRetries {
			return fmt.Errorf("%w: gave up after %d attempts (%d retries): concurrent writers kept committing changes this operation depends on; nothing of it is visible. Run it again when they are done, or partition the table by its writer column so that writers touch different files. The last conflict: %w",
				ErrConflict, attempt+1, attempt, err)
		}
		d := p.Delay(attempt + 1)
		onRetry(attempt+1, d, err)
		if err := p.Sleep(ctx, d); err != nil {
			return err
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
