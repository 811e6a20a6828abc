package frame

import (
	"fmt"
	"strings"

	"github.com/laktory/workbench/runner/sparksql"
)

// relation is a DataFrame a step reads: a DuckDB relation and its
// columns with the backend's types.
type relation struct {
	sql  string // the DuckDB relation: a quoted name or a parenthesized query
	cols []column
	// spark: column names resolve without case (Spark's default).
	spark bool
}

// column is a column of a relation.
type column struct {
	name string
	t    *DType         // POLARS
	st   *sparksql.Type // PYSPARK
}

// find returns the column named name.
func (r *relation) find(name string) (column, bool) {
	for _, c := range r.cols {
		if c.name == name {
			return c, true
		}
	}
	if r.spark {
		for _, c := range r.cols {
			if strings.EqualFold(c.name, name) {
				return c, true
			}
		}
	}
	return column{}, false
}

func (r *relation) names() []string {
	out := make([]string, len(r.cols))
	for i, c := range r.cols {
		out[i] = c.name
	}
	return out
}

// notFound is the error of a missing column, with Polars' message (it
// lists the frame's columns) or narwhals' on Spark.
func (r *relation) notFound(fam, name string, pos int) *Error {
	var err *Error
	switch {
	case r.spark && fam == "nw":
		err = laktoryErr(pos, "ColumnNotFoundError: The selected columns were not found. Missing column: %s", name)
	case r.spark:
		err = laktoryErr(pos, "AnalysisException: [UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function parameter with name `%s` cannot be resolved.", name)
	default:
		err = laktoryErr(pos, "ColumnNotFoundError: unable to find column %q; valid columns: %s", name, quotedList(r.names()))
	}
	err.Hint = candidates(name, r.names())
	return err
}

func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// candidates names the columns closest to a missing one.
func candidates(name string, names []string) string {
	type cand struct {
		n string
		d int
	}
	var best []cand
	for _, n := range names {
		d := editDistance(strings.ToLower(name), strings.ToLower(n))
		if d <= max(2, len(name)/3) || strings.Contains(strings.ToLower(n), strings.ToLower(name)) {
			best = append(best, cand{n, d})
		}
	}
	for i := 1; i < len(best); i++ {
		for j := i; j > 0 && best[j].d < best[j-1].d; j-- {
			best[j], best[j-1] = best[j-1], best[j]
		}
	}
	if len(best) == 0 {
		return "the columns are " + strings.Join(names, ", ")
	}
	var out []string
	for i, b := range best {
		if i == 3 {
			break
		}
		out = append(out, b.n)
	}
	return "did you mean " + strings.Join(out, ", ") + "?"
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
