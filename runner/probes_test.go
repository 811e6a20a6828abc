package runner

import (
	"testing"
)

// TestNullProbesShared: the NULL probe of an expectation is asked once per
// text: the same expectation over the same columns of another node (its
// relation named otherwise) is answered from the runner's probes, even
// where its session could not run it; a different expectation is asked.
func TestNullProbesShared(t *testing.T) {
	r := testRunner(t)
	ctx := t.Context()
	var np nullProbes
	nulls := []string{`NULL::DOUBLE AS "amount"`, `NULL::BIGINT AS "order_id"`}
	s, err := newCheckSession(ctx, r.local)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		x       string
		notNull bool
	}{
		{`(("amount" > 0))`, false},
		{`((coalesce("amount", 0) >= 0))`, true},
		{`(("amount" IS NULL OR "amount" > 0))`, true},
	} {
		if got := np.notNull(ctx, s, "lk1_2_step", c.x, nulls); got != c.notNull {
			t.Errorf("%s: not NULL %v, want %v", c.x, got, c.notNull)
		}
	}
	if n := np.n.Load(); n != 3 {
		t.Fatalf("%d probes kept, want 3", n)
	}
	s.discard()
	// Another node's session, ended: only kept answers can come back.
	gone, err := newCheckSession(ctx, r.local)
	if err != nil {
		t.Fatal(err)
	}
	gone.discard()
	if !np.notNull(ctx, gone, "lk7_5_step", `((coalesce("amount", 0) >= 0))`, nulls) {
		t.Error("the same expectation over the same columns was asked again")
	}
	if np.notNull(ctx, gone, "lk7_5_step", `((coalesce("amount", 1) >= 0))`, nulls) {
		t.Error("another expectation answered from the kept probes")
	}
	// x naming its relation: the probe names it as x does.
	s2, err := newCheckSession(ctx, r.local)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.discard()
	if !np.notNull(ctx, s2, "lk8_1_step", `((coalesce("lk8_1_step"."amount", 0) >= 0))`, nulls) {
		t.Error("a probe of a qualified column")
	}
}
