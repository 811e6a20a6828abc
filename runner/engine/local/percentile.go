package local

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"math"
	"sort"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// SparkPercentile is the name of the scalar function RegisterFunctions
// adds for Spark's percentile, percentile_cont, percentile_disc and median
// (PercentileBase in Spark 4.2): spark_percentile(entries, percentages,
// flags) computes, from the entries an aggregate collected (a list of
// structs {d: the value as a double, k: the value's identity where the
// double does not tell values apart, or NULL, w: its frequency}), the
// percentile at each percentage, as a list of doubles (NULL where no
// entry counts). flags: PercentileDisc (percentile_disc's calculation),
// PercentileReverse (ORDER BY ... DESC), PercentileFloat (the values are
// FLOAT or DOUBLE: told apart by their bits, as java.lang.Double.equals
// does). Entries whose value or frequency is NULL or whose frequency is 0
// are skipped; the front end raises Spark's error for a negative one.
const (
	SparkPercentile   = "spark_percentile"
	PercentileDisc    = 1
	PercentileReverse = 2
	PercentileFloat   = 4
	PercentileFloat32 = 8 // with PercentileFloat: FLOAT values (java.lang.Float keys)
)

// ErrSignedZero: a percentile whose result is a zero of a group holding
// both 0.0 and -0.0 whose order in Spark's hash map depends on the order
// Spark reads the rows in.
var ErrSignedZero = errors.New("[LOCALLY_UNSUPPORTED.PERCENTILE_SIGNED_ZERO] a percentile of a group holding both 0.0 and -0.0 whose result is a zero: Spark orders the two zeros by the slots of its hash map, which here depend on the order it reads the rows in; cast the values to DECIMAL")

// PercentileEntry is one value of a group and its frequency.
type PercentileEntry struct {
	D float64 // the value, as Spark's toDoubleValue gives it
	K string  // its identity where D does not tell values apart ("" otherwise)
	W int64   // its frequency (> 0)
}

type pctKey struct {
	d    float64
	k    string
	zero int // -1 for -0.0, 1 for 0.0, 0 otherwise (float values only)
}

// Percentiles computes Spark's percentiles of entries at ps (each within
// [0, 1]); nil when no entry counts or there is no percentage (Spark's
// NULL).
func Percentiles(entries []PercentileEntry, ps []float64, flags int) ([]float64, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	float := flags&PercentileFloat != 0
	// The distinct values and their counts (OpenHashMap[AnyRef, Long]).
	type kc struct {
		key   pctKey
		count int64
	}
	idx := map[pctKey]int{}
	var keys []kc
	for _, e := range entries {
		if e.W <= 0 {
			continue
		}
		k := pctKey{d: e.D, k: e.K}
		if float {
			switch {
			case math.IsNaN(e.D):
				k.d = math.NaN()
			case e.D == 0 && math.Signbit(e.D):
				k.zero = -1
			case e.D == 0:
				k.zero = 1
			}
		}
		mk := k
		if math.IsNaN(mk.d) {
			mk.d = 0
			mk.k = "NaN"
		}
		if i, ok := idx[mk]; ok {
			keys[i].count += e.W
			continue
		}
		idx[mk] = len(keys)
		keys = append(keys, kc{key: k, count: e.W})
	}
	if len(keys) == 0 {
		return nil, nil
	}
	reverse := flags&PercentileReverse != 0
	// Spark's ordering of doubles: NaN above everything, -0.0 = 0.0; a
	// stable sort, where -0.0 comes before 0.0 (the slots of Spark's hash
	// map for groups of few values), in both directions.
	cmp := func(a, b float64) int {
		an, bn := math.IsNaN(a), math.IsNaN(b)
		switch {
		case an && bn:
			return 0
		case an:
			return 1
		case bn:
			return -1
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	sort.SliceStable(keys, func(i, j int) bool {
		c := cmp(keys[i].key.d, keys[j].key.d)
		if reverse {
			c = -c
		}
		if c != 0 {
			return c < 0
		}
		return keys[i].key.zero < keys[j].key.zero
	})
	both := false
	if float {
		var neg, pos bool
		for _, k := range keys {
			neg = neg || k.key.zero < 0
			pos = pos || k.key.zero > 0
		}
		both = neg && pos
	}
	cum := make([]int64, len(keys))
	var total int64
	for i, k := range keys {
		total += k.count
		cum[i] = total
	}
	// search is java.util.Arrays.binarySearch's index or insertion point.
	search := func(v int64) int {
		return sort.Search(len(cum), func(i int) bool { return cum[i] >= v })
	}
	// same is Scala's == of the boxed keys: numeric equality (-0.0 == 0.0,
	// NaN != NaN unless the same key).
	same := func(i, j int) bool {
		if i == j {
			return true
		}
		a, b := keys[i].key, keys[j].key
		return a.d == b.d && a.k == b.k
	}
	zerosOrdered := func(keys []kc, flags int) bool {
		hashes := make([]int32, 0, len(keys))
		for _, k := range keys {
			if k.key.zero == 0 {
				hashes = append(hashes, javaHash(k.key.d, flags&PercentileFloat32 != 0))
			}
		}
		return zerosFirstNegative(hashes, len(keys))
	}
	out := make([]float64, len(ps))
	for n, p := range ps {
		var r float64
		var at []int
		if flags&PercentileDisc != 0 {
			position := float64(total) * p
			higher := int64(math.Ceil(position))
			i := search(higher)
			r, at = keys[i].key.d, []int{i}
		} else {
			position := float64(total-1) * p
			lower, higher := int64(math.Floor(position)), int64(math.Ceil(position))
			li, hi := search(lower+1), search(higher+1)
			switch {
			case higher == lower || same(li, hi):
				r, at = keys[li].key.d, []int{li}
			default:
				// Two products, no fused multiply-add.
				a := float64((float64(higher) - position) * keys[li].key.d)
				b := float64((position - float64(lower)) * keys[hi].key.d)
				r, at = a+b, []int{li, hi}
			}
		}
		if both && !zerosOrdered(keys, flags) {
			for _, i := range at {
				if keys[i].key.zero != 0 && r == 0 {
					return nil, ErrSignedZero
				}
			}
		}
		out[n] = r
	}
	return out, nil
}

type percentileFunc struct {
	entries, ps, flags, out duckdb.TypeInfo
}

func newPercentile() (*percentileFunc, error) {
	d, err := duckdb.NewTypeInfo(duckdb.TYPE_DOUBLE)
	if err != nil {
		return nil, err
	}
	s, err := duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
	if err != nil {
		return nil, err
	}
	w, err := duckdb.NewTypeInfo(duckdb.TYPE_BIGINT)
	if err != nil {
		return nil, err
	}
	var f percentileFunc
	if f.flags, err = duckdb.NewTypeInfo(duckdb.TYPE_INTEGER); err != nil {
		return nil, err
	}
	fields := make([]duckdb.StructEntry, 3)
	for i, nt := range []struct {
		name string
		t    duckdb.TypeInfo
	}{{"d", d}, {"k", s}, {"w", w}} {
		if fields[i], err = duckdb.NewStructEntry(nt.t, nt.name); err != nil {
			return nil, err
		}
	}
	st, err := duckdb.NewStructInfo(fields[0], fields[1:]...)
	if err != nil {
		return nil, err
	}
	if f.entries, err = duckdb.NewListInfo(st); err != nil {
		return nil, err
	}
	if f.ps, err = duckdb.NewListInfo(d); err != nil {
		return nil, err
	}
	f.out = f.ps
	return &f, nil
}

func (f *percentileFunc) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{f.entries, f.ps, f.flags}, ResultTypeInfo: f.out}
}

func (f *percentileFunc) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(v []driver.Value) (any, error) {
		list, ok := v[0].([]any)
		if !ok {
			return nil, fmt.Errorf("%s: unexpected entries %T", SparkPercentile, v[0])
		}
		praw, ok := v[1].([]any)
		if !ok {
			return nil, fmt.Errorf("%s: unexpected percentages %T", SparkPercentile, v[1])
		}
		flags, ok := v[2].(int32)
		if !ok {
			return nil, fmt.Errorf("%s: unexpected flags %T", SparkPercentile, v[2])
		}
		entries := make([]PercentileEntry, 0, len(list))
		for _, raw := range list {
			m, ok := raw.(map[string]any)
			if !ok {
				continue
			}
			d, ok1 := m["d"].(float64)
			w, ok2 := m["w"].(int64)
			if !ok1 || !ok2 {
				continue // a NULL value or frequency
			}
			k, _ := m["k"].(string)
			entries = append(entries, PercentileEntry{D: d, K: k, W: w})
		}
		ps := make([]float64, len(praw))
		for i, p := range praw {
			x, ok := p.(float64)
			if !ok {
				return nil, fmt.Errorf("%s: a NULL percentage", SparkPercentile)
			}
			ps[i] = x
		}
		out, err := Percentiles(entries, ps, int(flags))
		if err != nil || out == nil {
			return nil, err
		}
		res := make([]any, len(out))
		for i, x := range out {
			res[i] = x
		}
		return res, nil
	}}
}

// javaHash is the hashCode of the boxed value Spark's OpenHashMap keys a
// FLOAT (java.lang.Float) or DOUBLE (java.lang.Double) value by.
func javaHash(d float64, float32Key bool) int32 {
	if float32Key {
		if math.IsNaN(d) {
			return 0x7fc00000
		}
		return int32(math.Float32bits(float32(d)))
	}
	b := math.Float64bits(d)
	if math.IsNaN(d) {
		b = 0x7ff8000000000000
	}
	return int32(uint32(b ^ b>>32))
}

// murmurSlot is Spark's OpenHashSet.hashcode (Guava's murmur3_32_fixed
// hashInt of the key's hashCode), before the mask.
func murmurSlot(h int32) uint32 {
	k := uint32(h) * 0xcc9e2d51
	k = k<<15 | k>>17
	k *= 0x1b873593
	h1 := k
	h1 = h1<<13 | h1>>19
	h1 = h1*5 + 0xe6546b64
	h1 ^= 4
	h1 ^= h1 >> 16
	h1 *= 0x85ebca6b
	h1 ^= h1 >> 13
	h1 *= 0xc2b2ae35
	h1 ^= h1 >> 16
	return h1
}

// zerosFirstNegative says whether Spark's hash map of n distinct values,
// holding -0.0, 0.0 and the others (their hashCodes), iterates -0.0 before
// 0.0 whatever the order it was filled in: OpenHashSet probes slot
// home, home+1, home+3, home+6, ... (capacity 64, doubled past 0.7 full),
// and a value can take one of -0.0's slots before 0.0's home only after as
// many collisions as there are values. It is when fewer of the other
// values can reach those slots than there are of them, and none can push
// 0.0 round the table (or merge the two: Scala's == of the boxed zeros).
func zerosFirstNegative(others []int32, n int) bool {
	capacity := uint32(64)
	for float64(n) > 0.7*float64(capacity) {
		capacity *= 2
	}
	mask := capacity - 1
	neg, pos := murmurSlot(int32(-0x80000000))&mask, murmurSlot(0)&mask
	if neg >= pos {
		return false
	}
	// -0.0's slots before 0.0's home.
	var danger []uint32
	for s, d := neg, uint32(1); s < pos && s >= neg; s, d = s+d, d+1 {
		danger = append(danger, s)
	}
	// 0.0 needs at least wrap collisions to come round below pos.
	wrap := 0
	for s, d := pos, uint32(1); s < capacity; s, d = s+d, d+1 {
		wrap++
	}
	if len(others) >= wrap {
		return false
	}
	reach := 0
	for _, h := range others {
		home := murmurSlot(h) & mask
		for t, s := uint32(0), home; t < uint32(n); t, s = t+1, (s+t+1)&mask {
			if slicesContains(danger, s) {
				reach++
				break
			}
		}
	}
	return reach < len(danger)
}

func slicesContains(xs []uint32, v uint32) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}
