package runner

import (
	"strings"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/dialect/spark"
	"github.com/laktory/workbench/runner/sparksql"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// quoteIdent quotes a DuckDB identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// quoteString quotes a DuckDB string literal.
func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// identList quotes and joins column names.
func identList(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = quoteIdent(c)
	}
	return strings.Join(q, ", ")
}

// stringList quotes and joins strings as a DuckDB list literal.
func stringList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quoteString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// isIdent reports whether s is a bare column name (letters, digits and
// underscores, not starting with a digit) rather than an expression.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// splitStatements splits SQL on semicolons outside quotes and comments,
// dropping empty statements.
func splitStatements(sql string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			out = append(out, s)
		}
		cur.Reset()
	}
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(sql) {
				if sql[j] == c {
					if j+1 < len(sql) && sql[j+1] == c { // doubled quote
						j += 2
						continue
					}
					break
				}
				j++
			}
			if j >= len(sql) {
				j = len(sql) - 1
			}
			cur.WriteString(sql[i : j+1])
			i = j
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				j = len(sql) - i
			}
			cur.WriteString(sql[i : i+j])
			i += j - 1
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			j := strings.Index(sql[i+2:], "*/")
			end := len(sql)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			cur.WriteString(sql[i:end])
			i = end - 1
		case c == ';':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

// whereSQL is a `where` ownership predicate as the runner embeds it in
// SQL over the rows of its table (columns cols, nil when unknown):
// for a PYSPARK writer (Laktory's default), the Spark SQL translated with
// Spark's semantics (what Spark's DELETE ... WHERE means), parsed as
// exactly one boolean expression without subqueries; for a POLARS writer,
// rendered by DuckDB from its parse tree (validate.Predicate with sqlp,
// the local engine's parser). A predicate that cannot be rendered becomes
// an error() call, so that any use fails with the reason instead of
// running other SQL.
func whereSQL(sqlp validate.SQL, where, backend string, conf map[string]string, cols []sparksql.Column) string {
	if backend == "POLARS" {
		p, err := validate.Predicate(sqlp, where)
		if err != nil {
			return "error(" + quoteString(err.Error()) + ")"
		}
		return p
	}
	if cols == nil {
		return "error(" + quoteString("the columns of the table are not known: `"+where+"` cannot be evaluated") + ")"
	}
	r, err := sparksql.TranslatePredicate(where, sparksql.ExprInput{Schema: cols}, spark.Options(&workspace.Node{SparkConf: conf}))
	if err != nil {
		return "error(" + quoteString("`shared.where: "+where+"`: "+err.Error()) + ")"
	}
	return "(" + r.SQL + ")"
}

// writerWhere is whereSQL for a writer over a table schema (nil when the
// table does not exist).
func writerWhere(sqlp validate.SQL, w *workspace.Writer, schema *delta.StructType) string {
	return whereSQL(sqlp, w.Where, w.Backend, w.SparkConf, deltaColumns(schema))
}

// deltaColumns are a Delta schema's columns with their Spark types (nil
// for no schema, or a type the translation does not know).
func deltaColumns(s *delta.StructType) []sparksql.Column {
	if s == nil {
		return nil
	}
	var out []sparksql.Column
	for _, f := range s.Fields {
		t, err := sparksql.ParseType(f.Type.TypeName())
		if err != nil {
			return nil
		}
		out = append(out, sparksql.Column{Name: f.Name, Type: t})
	}
	return out
}

// duckColumns are a relation's columns (DESCRIBE) with their Spark types.
func duckColumns(cs []column) []sparksql.Column {
	var out []sparksql.Column
	for _, c := range cs {
		t, err := sparksql.FromDuckDB(c.Type)
		if err != nil {
			return nil
		}
		out = append(out, sparksql.Column{Name: c.Name, Type: t})
	}
	return out
}
