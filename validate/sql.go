package validate

import (
	"database/sql"
	"encoding/json"
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
	// err is DuckDB's syntax error, errOffset its byte offset in the
	// predicate (-1 when DuckDB gives none).
	err       string
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
}

var parser = &sqlParser{cache: map[string]*predicate{}}

const (
	predPrefix = "SELECT 1 WHERE ("
	predSuffix = ")"
)

func (p *sqlParser) open() {
	p.db, p.err = sql.Open("duckdb", "?autoinstall_known_extensions=false&autoload_known_extensions=false&threads=1")
	if p.err != nil {
		return
	}
	p.db.SetMaxOpenConns(1)
	p.stmt, p.err = p.db.Prepare("SELECT json_serialize_sql(?::VARCHAR)::VARCHAR")
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
		q := predPrefix + sparkIdentifiers(w) + predSuffix
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
	rows, err := p.db.Query("SELECT x, json_serialize_sql(x)::VARCHAR FROM unnest(?::VARCHAR[]) t(x)", todo)
	if err != nil {
		return // parse falls back to one query per predicate
	}
	defer rows.Close()
	for rows.Next() {
		var q, out string
		if rows.Scan(&q, &out) != nil {
			return
		}
		if w, ok := byQuery[q]; ok {
			p.cache[w] = decodeParse(w, out)
		}
	}
}

func (p *sqlParser) parseLocked(where string) *predicate {
	var out string
	if err := p.stmt.QueryRow(predPrefix + sparkIdentifiers(where) + predSuffix).Scan(&out); err != nil {
		return &predicate{err: err.Error(), errOffset: -1}
	}
	return decodeParse(where, out)
}

// decodeParse reads DuckDB's json_serialize_sql output for where.
func decodeParse(where, out string) *predicate {
	var res struct {
		Error        bool   `json:"error"`
		ErrorMessage string `json:"error_message"`
		Position     string `json:"position"`
		Statements   []struct {
			Node struct {
				Type        string   `json:"type"`
				WhereClause *sqlNode `json:"where_clause"`
			} `json:"node"`
		} `json:"statements"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&res); err != nil {
		return &predicate{err: "cannot read DuckDB's parse tree: " + err.Error(), errOffset: -1}
	}
	if res.Error {
		off := -1
		if n, err := strconv.Atoi(res.Position); err == nil {
			off = min(max(n-len(predPrefix), 0), len(where))
		}
		return &predicate{err: res.ErrorMessage, errOffset: off}
	}
	if len(res.Statements) != 1 || res.Statements[0].Node.Type != "SELECT_NODE" || res.Statements[0].Node.WhereClause == nil {
		return &predicate{err: "not a single SQL predicate", errOffset: 0}
	}
	return &predicate{expr: res.Statements[0].Node.WhereClause}
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
