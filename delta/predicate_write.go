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
	// columns are the table columns the predicate references (logical
	// names as the schema spells them).
	columns []string
	// partitionOnly: every referenced column is a partition column (and
	// no subquery): the predicate's value is constant over a file.
	partitionOnly bool
	// parsed is the pruning form (partition values and min/max stats).
	parsed predicate
}

// analyzePredicate checks that pred is one DuckDB SQL boolean expression
// over the columns of s (binding it against an empty relation with the
// table's columns and types) and finds the columns it references, with
// DuckDB's own parser (json_serialize_sql). Problems wrap
// ErrInvalidPredicate and quote DuckDB's message.
func analyzePredicate(ctx context.Context, q Querier, s *Snapshot, pred string) (*predicateInfo, error) {
	pred = strings.TrimSpace(pred)
	if pred == "" {
		return nil, fmt.Errorf("%w: table %s: the predicate is empty (to remove every row, truncate the table)", ErrInvalidPredicate, s.root)
	}
	empty, err := emptyRelationSQL(s)
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, "SELECT count(*) FROM ("+empty+") AS t WHERE ("+pred+"\n)")
	if err != nil {
		return nil, fmt.Errorf("%w: table %s: %q is not a boolean SQL expression over the table's columns (%s): %v",
			ErrInvalidPredicate, s.root, pred, strings.Join(s.schema.FieldNames(), ", "), err)
	}
	rows.Close()

	var tree string
	if err := queryRow(ctx, q, "SELECT CAST(json_serialize_sql("+quoteString("SELECT * FROM t WHERE "+pred)+") AS VARCHAR)", &tree); err != nil {
		return nil, fmt.Errorf("%w: table %s: predicate %q: %v", ErrInvalidPredicate, s.root, pred, err)
	}
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
		info.columns = append(info.columns, f.Name)
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

// emptyRelationSQL is a SELECT with no row and the table's logical columns
// and types, to bind expressions against.
func emptyRelationSQL(s *Snapshot) (string, error) {
	cols := make([]string, 0, len(s.schema.Fields))
	for _, f := range s.schema.Fields {
		t, err := DuckDBType(f.Type)
		if err != nil {
			return "", fmt.Errorf("table %s, column %s: %w", s.root, f.Name, err)
		}
		cols = append(cols, "CAST(NULL AS "+t+") AS "+quoteIdent(f.Name))
	}
	if len(cols) == 0 {
		cols = append(cols, "NULL AS __laktory_none")
	}
	return "SELECT " + strings.Join(cols, ", ") + " WHERE false", nil
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

// matchPartitions evaluates pred (over partition columns only) with
// DuckDB for each file's partition values, once per distinct tuple of
// values, and reports which files it is TRUE for.
func matchPartitions(ctx context.Context, q Querier, s *Snapshot, files []*Add, pred string) ([]bool, error) {
	out := make([]bool, len(files))
	if len(files) == 0 {
		return out, nil
	}
	pfs := s.partitionFields()
	tupleOf := make([]int, len(files))
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
				return nil, fmt.Errorf("%w: table %s, file %s, column %s: %v", ErrInvalidPartitionValue, s.root, f.Path, pf.Name, err)
			}
			lit, err := sqlLiteral(pf.Type, v)
			if err != nil {
				return nil, err
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
	query := "SELECT __laktory_i FROM (VALUES " + strings.Join(rowsSQL, ", ") + ") AS t(" + strings.Join(names, ", ") +
		") WHERE (" + pred + "\n)"
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("%w: table %s: evaluating %q over partition values: %v", ErrInvalidPredicate, s.root, pred, err)
	}
	defer rows.Close()
	hit := make([]bool, len(tuples))
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
