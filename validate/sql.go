package validate

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	// DuckDB parses the where predicates (in memory, no file access).
	_ "github.com/duckdb/duckdb-go/v2"
)

// sqlNode is DuckDB's serialized expression tree (json_serialize_sql).
type sqlNode struct {
	Class         string      `json:"class"`
	Type          string      `json:"type"`
	Children      []*sqlNode  `json:"children"`
	Left          *sqlNode    `json:"left"`
	Right         *sqlNode    `json:"right"`
	Input         *sqlNode    `json:"input"`
	Lower         *sqlNode    `json:"lower"`
	Upper         *sqlNode    `json:"upper"`
	Child         *sqlNode    `json:"child"`
	ColumnNames   []string    `json:"column_names"`
	Value         *sqlConst   `json:"value"`
	FunctionName  string      `json:"function_name"`
	CastType      *sqlType    `json:"cast_type"`
	QueryLocation json.Number `json:"query_location"`
	CaseChecks    []struct {
		WhenExpr *sqlNode `json:"when_expr"`
		ThenExpr *sqlNode `json:"then_expr"`
	} `json:"case_checks"`
	ElseExpr *sqlNode `json:"else_expr"`
}

type sqlType struct {
	ID       string `json:"id"`
	TypeInfo *struct {
		Scale int `json:"scale"`
	} `json:"type_info"`
}

type sqlConst struct {
	Type   sqlType         `json:"type"`
	IsNull bool            `json:"is_null"`
	Value  json.RawMessage `json:"value"`
}

// predicate is the result of parsing one `where` predicate.
type predicate struct {
	expr *sqlNode
	// sql is the predicate as it is embedded in SQL: DuckDB's rendering of
	// its parse tree, in parentheses ("" when err is set).
	sql string
	// err says why the text is not a predicate: DuckDB's syntax error
	// (code CodeWhereSyntax), not exactly one expression (CodeWhereShape)
	// or an expression reading more than the row (CodeWhereReads);
	// errOffset is its byte offset in the predicate (-1 when unknown).
	err       string
	code      string
	errOffset int
	// unavailable is set when DuckDB could not be started: predicates are
	// then neither checked nor proven.
	unavailable bool

	once sync.Once
	dnf  dnf      // the predicate in disjunctive normal form
	cols []string // the columns it constrains, sorted
	derr error    // errUnsupported when the prover cannot handle it
}

// normal returns the predicate in DNF, computed once.
func (p *predicate) normal() (dnf, []string, error) {
	p.once.Do(func() {
		if p.expr == nil {
			p.derr = errUnsupported
			return
		}
		p.dnf, p.derr = toDNF(p.expr, false)
		p.cols = columnsOf(p.dnf)
	})
	return p.dnf, p.cols, p.derr
}

// sqlParser parses predicates with an in-memory DuckDB, once per text.
type sqlParser struct {
	once  sync.Once
	db    *sql.DB
	stmt  *sql.Stmt
	err   error
	mu    sync.Mutex
	cache map[string]*predicate
	// pure are DuckDB's deterministic scalar functions (stability
	// CONSISTENT): the only ones an ownership predicate may call.
	pure map[string]bool
	// counts caches statementCount.
	counts map[string]int
}

var parser = &sqlParser{cache: map[string]*predicate{}}

// A predicate is parsed as the only item of a select list: on its own, so
// that a text such as `a = 1) OR (true` is a syntax error instead of
// changing the statement around it.
const predPrefix = "SELECT "

// parseSQL serializes the parse tree of each text x and renders it back
// to SQL when it parsed.
const parseSQL = "SELECT x, j::VARCHAR, CASE WHEN j->>'error' = 'false' THEN json_deserialize_sql(j) END FROM (SELECT x, json_serialize_sql(x) AS j FROM "

func (p *sqlParser) open() {
	p.db, p.err = sql.Open("duckdb", "?autoinstall_known_extensions=false&autoload_known_extensions=false&threads=1&enable_external_access=false")
	if p.err != nil {
		return
	}
	p.db.SetMaxOpenConns(1)
	if p.stmt, p.err = p.db.Prepare(parseSQL + "(SELECT ?::VARCHAR AS x))"); p.err != nil {
		return
	}
	rows, err := p.db.Query(`SELECT function_name FROM duckdb_functions() GROUP BY function_name
		HAVING bool_and(function_type = 'scalar' AND stability = 'CONSISTENT')`)
	if err != nil {
		p.err = err
		return
	}
	defer rows.Close()
	p.pure = map[string]bool{}
	for rows.Next() {
		var name string
		if p.err = rows.Scan(&name); p.err != nil {
			return
		}
		p.pure[name] = true
	}
	p.err = rows.Err()
}

// parse returns the parsed predicate (cached).
func (p *sqlParser) parse(where string) *predicate {
	p.mu.Lock()
	defer p.mu.Unlock()
	if r, ok := p.cache[where]; ok {
		return r
	}
	p.once.Do(p.open)
	if p.err != nil {
		return &predicate{unavailable: true, errOffset: -1}
	}
	r := p.parseLocked(where)
	if len(p.cache) > 100_000 { // bound memory for long-lived processes
		clear(p.cache)
	}
	p.cache[where] = r
	return r
}

// parseAll parses the predicates not parsed yet in one DuckDB query (a
// validation of many writers pays one round trip, not one per predicate).
func (p *sqlParser) parseAll(wheres []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var todo []string
	byQuery := map[string]string{}
	for _, w := range wheres {
		if _, ok := p.cache[w]; ok {
			continue
		}
		q := predPrefix + sparkIdentifiers(w)
		if _, dup := byQuery[q]; !dup {
			byQuery[q] = w
			todo = append(todo, q)
		}
	}
	if len(todo) < 2 {
		return // parse handles one predicate as well
	}
	p.once.Do(p.open)
	if p.err != nil {
		return
	}
	rows, err := p.db.Query(parseSQL+"unnest(?::VARCHAR[]) t(x))", todo)
	if err != nil {
		return // parse falls back to one query per predicate
	}
	defer rows.Close()
	for rows.Next() {
		var q, out string
		var rendered sql.NullString
		if rows.Scan(&q, &out, &rendered) != nil {
			return
		}
		if w, ok := byQuery[q]; ok {
			p.cache[w] = p.decodeParse(w, out, rendered.String)
		}
	}
}

func (p *sqlParser) parseLocked(where string) *predicate {
	var q, out string
	var rendered sql.NullString
	if err := p.stmt.QueryRow(predPrefix+sparkIdentifiers(where)).Scan(&q, &out, &rendered); err != nil {
		return &predicate{err: err.Error(), code: CodeWhereSyntax, errOffset: -1}
	}
	return p.decodeParse(where, out, rendered.String)
}

// decodeParse reads DuckDB's json_serialize_sql output for where, and
// its rendering back to SQL.
func (p *sqlParser) decodeParse(where, out, rendered string) *predicate {
	var res struct {
		Error        bool   `json:"error"`
		ErrorMessage string `json:"error_message"`
		Position     string `json:"position"`
		Statements   []struct {
			NamedParams []any `json:"named_param_map"`
			Node        struct {
				Type       string            `json:"type"`
				SelectList []json.RawMessage `json:"select_list"`
				FromTable  struct {
					Type string `json:"type"`
				} `json:"from_table"`
				WhereClause      any   `json:"where_clause"`
				GroupExpressions []any `json:"group_expressions"`
				Having           any   `json:"having"`
				Qualify          any   `json:"qualify"`
				Sample           any   `json:"sample"`
				Modifiers        []any `json:"modifiers"`
				CTEs             struct {
					Map []any `json:"map"`
				} `json:"cte_map"`
			} `json:"node"`
		} `json:"statements"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&res); err != nil {
		return &predicate{err: "cannot read DuckDB's parse tree: " + err.Error(), code: CodeWhereSyntax, errOffset: -1}
	}
	if res.Error {
		off := -1
		if n, err := strconv.Atoi(res.Position); err == nil {
			off = min(max(n-len(predPrefix), 0), len(where))
		}
		if strings.Contains(res.ErrorMessage, "Only SELECT statements") {
			return &predicate{err: "it holds an SQL statement, not an expression", code: CodeWhereShape, errOffset: 0}
		}
		return &predicate{err: res.ErrorMessage, code: CodeWhereSyntax, errOffset: off}
	}
	shape := func(msg string) *predicate { return &predicate{err: msg, code: CodeWhereShape, errOffset: 0} }
	if len(res.Statements) != 1 {
		return shape("it holds several SQL statements")
	}
	st := res.Statements[0]
	n := st.Node
	switch {
	case n.Type != "SELECT_NODE":
		return shape("it is not an expression (it combines queries)")
	case len(n.SelectList) != 1:
		return shape(fmt.Sprintf("it holds %d expressions separated by commas", len(n.SelectList)))
	case n.FromTable.Type != "EMPTY" || n.WhereClause != nil || len(n.GroupExpressions) > 0 || n.Having != nil ||
		n.Qualify != nil || n.Sample != nil || len(n.Modifiers) > 0 || len(n.CTEs.Map) > 0 || len(st.NamedParams) > 0:
		return shape("it holds more than an expression (a FROM, WHERE, GROUP BY, ORDER BY or LIMIT clause, or a parameter)")
	}
	var expr sqlNode
	if err := json.Unmarshal(n.SelectList[0], &expr); err != nil {
		return &predicate{err: "cannot read DuckDB's parse tree: " + err.Error(), code: CodeWhereSyntax, errOffset: -1}
	}
	var tree any
	dec = json.NewDecoder(bytes.NewReader(n.SelectList[0]))
	dec.UseNumber()
	dec.Decode(&tree) //nolint:errcheck // decoded above
	if m, ok := tree.(map[string]any); ok && m["alias"] != "" {
		return shape(fmt.Sprintf("it names its value (`%v`): remove the alias", m["alias"]))
	}
	if bad := p.impure(tree, len(where)); bad != nil {
		return bad
	}
	expr2, ok := strings.CutPrefix(rendered, "SELECT ")
	if !ok || expr2 == "" {
		return &predicate{err: "DuckDB cannot render the predicate back to SQL", code: CodeWhereSyntax, errOffset: -1}
	}
	return &predicate{expr: &expr, sql: "(" + expr2 + ")"}
}

// exprClasses are the expression classes an ownership predicate may use:
// values, columns of the row and operators and functions over them.
var exprClasses = map[string]bool{"CONSTANT": true, "COLUMN_REF": true, "COMPARISON": true, "CONJUNCTION": true,
	"OPERATOR": true, "FUNCTION": true, "CAST": true, "CASE": true, "BETWEEN": true, "COLLATE": true,
	"LAMBDA": true, "LAMBDA_REF": true}

// impure walks a parse tree and returns why it reads more than the row it
// is evaluated on (a subquery, a table function or file reader, a function
// whose result changes between calls, a parameter, a star), nil when it
// does not.
func (p *sqlParser) impure(tree any, n int) *predicate {
	at := func(m map[string]any) int {
		if off, err := strconv.Atoi(fmt.Sprint(m["query_location"])); err == nil && off >= len(predPrefix) {
			return min(off-len(predPrefix), n)
		}
		return 0
	}
	var bad *predicate
	var walk func(v any)
	walk = func(v any) {
		if bad != nil {
			return
		}
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			if class, ok := x["class"].(string); ok {
				switch {
				case class == "SUBQUERY":
					bad = &predicate{err: "it holds a subquery: an ownership predicate may read only the row's columns", code: CodeWhereReads, errOffset: at(x)}
					return
				case !exprClasses[class]:
					bad = &predicate{err: fmt.Sprintf("it uses %s: an ownership predicate is an expression over the row's columns", strings.ToLower(strings.ReplaceAll(fmt.Sprint(x["type"]), "_", " "))),
						code: CodeWhereReads, errOffset: at(x)}
					return
				case class == "FUNCTION":
					name := fmt.Sprint(x["function_name"])
					if s, _ := x["schema"].(string); s != "" || !p.pure[name] {
						bad = &predicate{err: fmt.Sprintf("it calls %s(), which is not a deterministic scalar function (a table function, file reader, aggregate or a function whose result changes between runs): the rows a writer owns must not change by themselves", name),
							code: CodeWhereReads, errOffset: at(x)}
						return
					}
				}
			}
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(tree)
	return bad
}

// sparkIdentifiers turns Spark's `quoted` identifiers into DuckDB's
// "quoted" ones, outside string literals. The length is unchanged, so
// error offsets still point into the original text.
func sparkIdentifiers(s string) string {
	if !strings.Contains(s, "`") {
		return s
	}
	b := []byte(s)
	inStr := false
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '\'':
			inStr = !inStr
		case b[i] == '`' && !inStr:
			b[i] = '"'
		}
	}
	return string(b)
}

// statementCount is the number of SQL statements DuckDB's parser finds in
// text, with -2 for a text holding a statement that is not a query, and -1
// when it cannot tell (the text does not parse: another dialect, say).
func (p *sqlParser) statementCount(text string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n, ok := p.counts[text]; ok {
		return n
	}
	p.once.Do(p.open)
	if p.err != nil {
		return -1
	}
	var out string
	n := -1
	if p.db.QueryRow("SELECT json_serialize_sql(?::VARCHAR)::VARCHAR", text).Scan(&out) == nil {
		var res struct {
			Error        bool   `json:"error"`
			ErrorMessage string `json:"error_message"`
			Statements   []any  `json:"statements"`
		}
		if json.Unmarshal([]byte(out), &res) == nil {
			switch {
			case !res.Error:
				n = len(res.Statements)
			case strings.Contains(res.ErrorMessage, "Only SELECT statements"):
				n = -2
			}
		}
	}
	if p.counts == nil || len(p.counts) > 100_000 {
		p.counts = map[string]int{}
	}
	p.counts[text] = n
	return n
}
