package delta

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// predicateInfo is a delete (read) predicate, checked and analysed.
type predicateInfo struct {
	sql string
	// partitionOnly: every referenced column is a partition column (and
	// no subquery): the predicate's value is constant over a file.
	partitionOnly bool
	// parsed is the pruning form (partition values and min/max stats).
	parsed predicate
	// goEval: a partition-only predicate Go evaluates exactly (see
	// evalPartition).
	goEval bool
}

// analyzePredicate checks that pred is one DuckDB SQL boolean expression
// over the columns of s, finds the columns it references with DuckDB's own
// parser (json_serialize_sql), and evaluates it over the partition values
// of files (the data columns as NULL), all in one query. The returned
// matches tell, per file, whether pred is TRUE for its partition values;
// they are meaningful when the predicate is partition-only. Problems wrap
// ErrInvalidPredicate and quote DuckDB's message.
func analyzePredicate(ctx context.Context, q Querier, s *Snapshot, pred string, files []*Add) (*predicateInfo, []bool, error) {
	pred = strings.TrimSpace(pred)
	if pred == "" {
		return nil, nil, fmt.Errorf("%w: table %s: the predicate is empty (to remove every row, truncate the table)", ErrInvalidPredicate, s.root)
	}
	values, tupleOf, nTuples, err := partitionValuesSQL(s, files)
	if err != nil {
		return nil, nil, err
	}
	var nulls []string
	for _, f := range s.schema.Fields {
		if s.isPartitionColumn(f.Name) {
			continue
		}
		t, err := DuckDBType(f.Type)
		if err != nil {
			return nil, nil, fmt.Errorf("table %s, column %s: %w", s.root, f.Name, err)
		}
		nulls = append(nulls, "CAST(NULL AS "+t+") AS "+quoteIdent(f.Name))
	}
	rel := values
	if len(nulls) > 0 {
		rel = "(SELECT * FROM " + values + ", (SELECT " + strings.Join(nulls, ", ") + ") AS __n)"
	}
	// One round trip (a scalar subquery would cost twice as much to
	// plan): the tree in the row with index -1, then the indexes of the
	// tuples the predicate is TRUE for.
	query := "SELECT -1 AS __laktory_i, CAST(json_serialize_sql(" + quoteString("SELECT * FROM t WHERE "+pred) + ") AS VARCHAR) " +
		"UNION ALL SELECT __laktory_i, NULL FROM " + rel + " AS t WHERE (" + pred + "\n)"
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: table %s: %q is not a boolean SQL expression over the table's columns (%s): %v",
			ErrInvalidPredicate, s.root, pred, strings.Join(s.schema.FieldNames(), ", "), err)
	}
	defer rows.Close()
	var tree string
	hit := make([]bool, nTuples)
	for rows.Next() {
		var i int
		var t *string
		if err := rows.Scan(&i, &t); err != nil {
			return nil, nil, err
		}
		switch {
		case i == -1 && t != nil:
			tree = *t
		case i >= 0 && i < nTuples:
			hit[i] = true
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("%w: table %s: evaluating %q: %v", ErrInvalidPredicate, s.root, pred, err)
	}
	info, err := parsePredicateTree(s, pred, tree)
	if err != nil {
		return nil, nil, err
	}
	matches := make([]bool, len(files))
	for i, t := range tupleOf {
		matches[i] = hit[t]
	}
	return info, matches, nil
}

// parsePredicateTree reads json_serialize_sql's tree of "SELECT * FROM t
// WHERE pred": one statement with only a WHERE clause, and the table
// columns it references.
func parsePredicateTree(s *Snapshot, pred, tree string) (*predicateInfo, error) {
	var doc struct {
		Error      bool             `json:"error"`
		ErrMessage string           `json:"error_message"`
		Statements []map[string]any `json:"statements"`
	}
	if err := json.Unmarshal([]byte(tree), &doc); err != nil {
		return nil, fmt.Errorf("%w: table %s: predicate %q: %v", ErrInvalidPredicate, s.root, pred, err)
	}
	if doc.Error || len(doc.Statements) != 1 {
		return nil, fmt.Errorf("%w: table %s: %q must be a single boolean expression (%s)", ErrInvalidPredicate, s.root, pred, doc.ErrMessage)
	}
	node, _ := doc.Statements[0]["node"].(map[string]any)
	where := node["where_clause"]
	if where == nil || !emptyList(node["group_expressions"]) || node["having"] != nil || !emptyList(node["modifiers"]) || node["qualify"] != nil {
		return nil, fmt.Errorf("%w: table %s: %q must be a boolean expression only (no GROUP BY, ORDER BY, LIMIT...)", ErrInvalidPredicate, s.root, pred)
	}
	refs := map[string]bool{}
	lambdaParams := map[string]bool{}
	subquery := false
	walkExpr(where, func(n map[string]any) {
		switch n["class"] {
		case "COLUMN_REF":
			if names, ok := n["column_names"].([]any); ok && len(names) > 0 {
				if name, ok := names[0].(string); ok {
					refs[name] = true
				}
			}
		case "LAMBDA":
			walkExpr(n["lhs"], func(p map[string]any) {
				if names, ok := p["column_names"].([]any); ok && len(names) == 1 {
					if name, ok := names[0].(string); ok {
						lambdaParams[name] = true
					}
				}
			})
		case "SUBQUERY":
			subquery = true
		}
	})
	info := &predicateInfo{sql: pred, parsed: parsePredicate(pred), partitionOnly: !subquery}
	for name := range refs {
		if lambdaParams[name] {
			continue
		}
		f := s.schema.Field(name)
		if f == nil {
			info.partitionOnly = false // a name DuckDB resolved otherwise
			continue
		}
		if !s.isPartitionColumn(f.Name) {
			info.partitionOnly = false
		}
	}
	return info, nil
}

// walkExpr calls fn on every JSON object of a serialized expression tree.
func walkExpr(v any, fn func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		fn(x)
		for _, c := range x {
			walkExpr(c, fn)
		}
	case []any:
		for _, c := range x {
			walkExpr(c, fn)
		}
	}
}

func emptyList(v any) bool {
	l, ok := v.([]any)
	return v == nil || ok && len(l) == 0
}

// queryRow runs a query returning one row and scans it.
func queryRow(ctx context.Context, q Querier, query string, dest ...any) error {
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return fmt.Errorf("query returned no row")
	}
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	return rows.Close()
}

// partitionValuesSQL is a VALUES relation with one row per distinct tuple
// of the files' partition values: __laktory_i (the tuple's index), then
// the partition columns under their logical names and types. tupleOf maps
// each file to its tuple. Without files it holds one row of NULLs (index
// -2).
func partitionValuesSQL(s *Snapshot, files []*Add) (sql string, tupleOf []int, nTuples int, err error) {
	pfs := s.partitionFields()
	tupleOf = make([]int, len(files))
	tuples := map[string]int{}
	var rowsSQL []string
	for i, f := range files {
		var key strings.Builder
		lits := make([]string, len(pfs))
		for j, pf := range pfs {
			raw, ok := f.PartitionValues[pf.PhysicalName(s.mapping)]
			if !ok {
				raw = f.PartitionValues[pf.Name]
			}
			v, err := parsePartitionValue(pf.Type, raw)
			if err != nil {
				return "", nil, 0, fmt.Errorf("%w: table %s, file %s, column %s: %v", ErrInvalidPartitionValue, s.root, f.Path, pf.Name, err)
			}
			lit, err := sqlLiteral(pf.Type, v)
			if err != nil {
				return "", nil, 0, err
			}
			lits[j] = lit
			key.WriteString(lit)
			key.WriteByte(0)
		}
		idx, ok := tuples[key.String()]
		if !ok {
			idx = len(tuples)
			tuples[key.String()] = idx
			rowsSQL = append(rowsSQL, "("+strings.Join(append([]string{strconv.Itoa(idx)}, lits...), ", ")+")")
		}
		tupleOf[i] = idx
	}
	names := []string{"__laktory_i"}
	for _, pf := range pfs {
		names = append(names, quoteIdent(pf.Name))
	}
	if len(rowsSQL) == 0 {
		row := []string{"-2"}
		for _, pf := range pfs {
			lit, err := sqlLiteral(pf.Type, nil)
			if err != nil {
				return "", nil, 0, err
			}
			row = append(row, lit)
		}
		rowsSQL = append(rowsSQL, "("+strings.Join(row, ", ")+")")
	}
	return "(VALUES " + strings.Join(rowsSQL, ", ") + ") AS __v(" + strings.Join(names, ", ") + ")", tupleOf, len(tuples), nil
}

// matchPartitions evaluates pred (over partition columns only) with
// DuckDB for each file's partition values, once per distinct tuple of
// values, and reports which files it is TRUE for.
func matchPartitions(ctx context.Context, q Querier, s *Snapshot, files []*Add, pred string) ([]bool, error) {
	out := make([]bool, len(files))
	if len(files) == 0 {
		return out, nil
	}
	values, tupleOf, nTuples, err := partitionValuesSQL(s, files)
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, "SELECT __laktory_i FROM "+values+" WHERE ("+pred+"\n)")
	if err != nil {
		return nil, fmt.Errorf("%w: table %s: evaluating %q over partition values: %v", ErrInvalidPredicate, s.root, pred, err)
	}
	defer rows.Close()
	hit := make([]bool, nTuples)
	for rows.Next() {
		var i int
		if err := rows.Scan(&i); err != nil {
			return nil, err
		}
		hit[i] = true
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i, t := range tupleOf {
		out[i] = hit[t]
	}
	return out, nil
}

// Partition predicates evaluated in Go. A predicate the pruning parser of
// predicate.go understands in full (comparisons, IN, BETWEEN, IS [NOT]
// NULL of a partition column with a literal, under AND, OR and NOT) is
// evaluated exactly on each file's partition values without asking DuckDB;
// anything else goes through analyzePredicate.

// goPartitionPredicate returns the parsed predicate when every one of its
// atoms compares a partition column of s with a literal, and nil
// otherwise.
func goPartitionPredicate(s *Snapshot, pred string) predicate {
	p := parsePredicate(pred)
	if _, all := p.(truePred); all {
		return nil
	}
	if !partitionAtoms(s, p) {
		return nil
	}
	return p
}

func partitionAtoms(s *Snapshot, p predicate) bool {
	isPart := func(col string) bool {
		f := s.schema.Field(col)
		return f != nil && s.isPartitionColumn(f.Name)
	}
	switch x := p.(type) {
	case andPred:
		for _, c := range x {
			if !partitionAtoms(s, c) {
				return false
			}
		}
		return true
	case orPred:
		for _, c := range x {
			if !partitionAtoms(s, c) {
				return false
			}
		}
		return true
	case cmpPred:
		return isPart(x.col)
	case inPred:
		return isPart(x.col)
	case betweenPred:
		return isPart(x.col)
	case nullPred:
		return isPart(x.col)
	}
	return false
}

// evalPartition evaluates a partition predicate on one file's exact
// partition values: whether it is TRUE, and whether Go could judge it
// (false for a literal that does not convert to the column's type, NaN,
// ...; the caller then asks DuckDB).
func evalPartition(p predicate, ff *fileFacts) (match, known bool) {
	switch x := p.(type) {
	case andPred:
		res := true
		for _, c := range x {
			m, k := evalPartition(c, ff)
			if !k {
				return false, false
			}
			res = res && m
		}
		return res, true
	case orPred:
		res := false
		for _, c := range x {
			m, k := evalPartition(c, ff)
			if !k {
				return false, false
			}
			res = res || m
		}
		return res, true
	case cmpPred:
		dt, r := ff.column(x.col)
		if !r.known || !r.exact {
			return false, false
		}
		lit, ok := x.lit.coerce(dt)
		if !ok {
			return false, false
		}
		if r.v == nil {
			return false, true // NULL compared with anything is not TRUE
		}
		c, ok := compareValues(r.v, lit)
		if !ok {
			return false, false
		}
		return cmpHolds(c, x.op), true
	case inPred:
		if x.not {
			for _, l := range x.lits {
				if l.kind == "null" {
					return false, true // x NOT IN (..., NULL) is never TRUE
				}
			}
			and := make(andPred, len(x.lits))
			for i, l := range x.lits {
				and[i] = cmpPred{col: x.col, op: "!=", lit: l}
			}
			return evalPartition(and, ff)
		}
		or := make(orPred, 0, len(x.lits))
		for _, l := range x.lits {
			if l.kind != "null" { // x = NULL is never TRUE
				or = append(or, cmpPred{col: x.col, op: "=", lit: l})
			}
		}
		return evalPartition(or, ff)
	case betweenPred:
		if x.not {
			return evalPartition(orPred{cmpPred{x.col, "<", x.lo}, cmpPred{x.col, ">", x.hi}}, ff)
		}
		return evalPartition(andPred{cmpPred{x.col, ">=", x.lo}, cmpPred{x.col, "<=", x.hi}}, ff)
	case nullPred:
		_, r := ff.column(x.col)
		if !r.known || !r.exact {
			return false, false
		}
		return (r.v == nil) != x.not, true
	}
	return false, false
}

// evalPartitions evaluates a Go partition predicate on every file; ok is
// false when some file cannot be judged in Go.
func evalPartitions(s *Snapshot, p predicate, files []*Add) (matches []bool, ok bool) {
	matches = make([]bool, len(files))
	for i, f := range files {
		m, known := evalPartition(p, &fileFacts{s: s, add: f})
		if !known {
			return nil, false
		}
		matches[i] = m
	}
	return matches, true
}
