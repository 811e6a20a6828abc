package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// SQL is the parser validate's rules read SQL texts with: DuckDB's,
// which the runner provides (runner.Runner.SQL parses on the local
// engine's database; runner/engine/local.OpenParser on one of its own).
// validate holds no SQL engine and links no cgo: it stays pure rules over
// a snapshot, and Options.SQL hands it the parser. The texts are parsed
// and rendered, never run.
type SQL interface {
	// Serialize parses each text and returns, in the order of texts, its
	// parse tree as DuckDB's json_serialize_sql gives it (an object whose
	// "error" is true, with the message and position, when the text does
	// not parse) and, for a text that parsed, the SQL DuckDB renders from
	// that tree (json_deserialize_sql; "" when it did not parse or cannot
	// be rendered). err is for a parser that cannot run (DuckDB could not
	// start), not for texts that do not parse.
	Serialize(texts []string) (trees, rendered []string, err error)
	// Deterministic names DuckDB's built-in scalar functions whose result
	// depends on their arguments only (stability CONSISTENT in every
	// overload): the functions an ownership predicate may call.
	Deterministic() ([]string, error)
}

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
	// unavailable is set when there is no parser (Options.SQL nil) or
	// DuckDB could not be started: predicates are then neither checked nor
	// proven.
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

// sqlParser parses predicates with an SQL implementation, once per text.
type sqlParser struct {
	src   SQL
	once  sync.Once
	err   error
	mu    sync.Mutex
	cache map[string]*predicate
	// pure are DuckDB's deterministic scalar functions (stability
	// CONSISTENT): the only ones an ownership predicate may call.
	pure map[string]bool
	// counts caches statementCount.
	counts map[string]int
}

func newSQLParser(src SQL) *sqlParser { return &sqlParser{src: src, cache: map[string]*predicate{}} }

// errNoSQL: Check was given no SQL parser.
var errNoSQL = errors.New("no SQL parser")

// fallbackSQL parses when Options.SQL is nil. Programs leave it nil and
// pass their runner's parser; validate's own tests set it (sql_test.go)
// to the local engine's.
var fallbackSQL SQL

// parsers holds one parser per SQL implementation, so that a long-lived
// caller (the workbench validates every save) parses each text once.
var parsers = struct {
	sync.Mutex
	m map[SQL]*sqlParser
}{m: map[SQL]*sqlParser{}}

// parserOf returns the parser of an SQL implementation; nil's parses
// nothing (predicates are then neither checked nor proven).
func parserOf(src SQL) *sqlParser {
	if src == nil {
		src = fallbackSQL
	}
	if src == nil || !reflect.TypeOf(src).Comparable() {
		return newSQLParser(src) // not cached across calls
	}
	parsers.Lock()
	defer parsers.Unlock()
	p := parsers.m[src]
	if p == nil {
		if len(parsers.m) >= 64 { // parsers of closed runners
			clear(parsers.m)
		}
		p = newSQLParser(src)
		parsers.m[src] = p
	}
	return p
}

// A predicate is parsed as the only item of a select list: on its own, so
// that a text such as `a = 1) OR (true` is a syntax error instead of
// changing the statement around it.
const predPrefix = "SELECT "

func (p *sqlParser) open() {
	if p.src == nil {
		p.err = errNoSQL
		return
	}
	names, err := p.src.Deterministic()
	if err != nil {
		p.err = err
		return
	}
	p.pure = make(map[string]bool, len(names))
	for _, n := range names {
		p.pure[n] = true
	}
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

// parseAll parses the predicates not parsed yet in one call of the parser
// (a validation of many writers pays one round trip, not one per
// predicate).
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
	trees, rendered, err := p.src.Serialize(todo)
	if err != nil {
		return // parse tries again one predicate at a time
	}
	for i, q := range todo {
		p.cache[byQuery[q]] = p.decodeParse(byQuery[q], trees[i], rendered[i])
	}
}

func (p *sqlParser) parseLocked(where string) *predicate {
	trees, rendered, err := p.src.Serialize([]string{predPrefix + sparkIdentifiers(where)})
	if err != nil {
		return &predicate{err: err.Error(), code: CodeWhereSyntax, errOffset: -1}
	}
	return p.decodeParse(where, trees[0], rendered[0])
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
	n := -1
	if trees, _, err := p.src.Serialize([]string{text}); err == nil {
		var res struct {
			Error        bool   `json:"error"`
			ErrorMessage string `json:"error_message"`
			Statements   []any  `json:"statements"`
		}
		if json.Unmarshal([]byte(trees[0]), &res) == nil {
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
