package local

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/laktory/workbench/delta"
)

// OpenDB opens the in-memory DuckDB database of the local engine
// (delta.OpenDuckDB's configuration), confined to what sandbox allows
// when it is set (delta.OpenConfinedDuckDB: the SQL of a workspace's
// pipelines reads and writes only its folders). It is the one place
// outside package delta where DuckDB is opened: the runner, the table
// readers and the commands take the database from here and hand it down.
// Its Go functions are registered (RegisterFunctions). Close the
// database when done.
func OpenDB(ctx context.Context, sandbox *delta.Confinement) (*sql.DB, error) {
	return OpenDBWith(ctx, sandbox, Options{})
}

// Options are settings of the local engine's database.
type Options struct {
	// Threads is DuckDB's threads setting, the threads that run one query
	// (the calling one included); 0 leaves DuckDB's default, one per core.
	// Queries of other connections run beside on their own callers.
	Threads int
}

// OpenDBWith opens the database as OpenDB does, with o's settings.
func OpenDBWith(ctx context.Context, sandbox *delta.Confinement, o Options) (*sql.DB, error) {
	var db *sql.DB
	var err error
	if sandbox != nil {
		c := *sandbox
		c.Threads = o.Threads
		db, err = delta.OpenConfinedDuckDB(ctx, c)
	} else {
		db, err = delta.OpenDuckDB(ctx)
		if err == nil && o.Threads > 0 {
			if _, err = db.ExecContext(ctx, fmt.Sprintf("SET GLOBAL threads = %d", o.Threads)); err != nil {
				db.Close()
				err = fmt.Errorf("open DuckDB: %w", err)
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if err := RegisterFunctions(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Parser is DuckDB's SQL parser, as validate's rules read SQL with it
// (validate.SQL): it serializes texts to their parse trees and renders the
// trees back to SQL (json_serialize_sql, json_deserialize_sql), and lists
// the deterministic built-in functions. It runs none of the texts it
// reads. It is safe for concurrent use.
type Parser struct {
	mu sync.Mutex
	db *sql.DB
	// open opens db on first use (OpenParser, whose parser owns what it
	// opens); err is why it could not.
	open   func() (*sql.DB, error)
	err    error
	closed bool
}

// NewParser returns a parser over db, the engine's database (the caller
// keeps and closes it): a program parses with the database it runs with.
func NewParser(db *sql.DB) *Parser { return &Parser{db: db} }

// OpenParser returns a parser over an in-memory database of its own,
// opened on first use with no access to files, for what parses SQL
// without running any (laktory graph, tests). Close it when done.
func OpenParser() *Parser {
	return &Parser{open: func() (*sql.DB, error) {
		db, err := OpenDB(context.Background(), &delta.Confinement{})
		if err == nil {
			db.SetMaxOpenConns(1)
		}
		return db, err
	}}
}

// Close closes the database OpenParser opened (NewParser's is the
// caller's); later calls fail.
func (p *Parser) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.open == nil || p.db == nil {
		return nil
	}
	db := p.db
	p.db = nil
	return db.Close()
}

var errParserClosed = errors.New("the SQL parser is closed")

// database returns the database to parse on, opening it on first use.
func (p *Parser) database() (*sql.DB, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, errParserClosed
	}
	if p.db == nil && p.err == nil && p.open != nil {
		p.db, p.err = p.open()
	}
	if p.err != nil {
		return nil, fmt.Errorf("SQL parser: %w", p.err)
	}
	return p.db, nil
}

// serializeSQL serializes texts x and renders those that parsed.
const serializeSQL = `SELECT x, j::VARCHAR, CASE WHEN j->>'error' = 'false' THEN json_deserialize_sql(j) END
	FROM (SELECT x, json_serialize_sql(x) AS j FROM unnest(?::VARCHAR[]) t(x))`

// Serialize implements validate.SQL: one query for all the texts.
func (p *Parser) Serialize(texts []string) (trees, rendered []string, err error) {
	db, err := p.database()
	if err != nil {
		return nil, nil, err
	}
	ctx := context.Background()
	type out struct{ tree, sql string }
	got := make(map[string]out, len(texts))
	var distinct []string
	for _, t := range texts {
		if _, dup := got[t]; !dup {
			got[t] = out{}
			distinct = append(distinct, t)
		}
	}
	if err := p.serializeAll(ctx, db, distinct, func(x, tree, sql string) { got[x] = out{tree, sql} }); err != nil {
		// A tree DuckDB cannot render fails the whole query: serialize and
		// render one text at a time instead.
		for _, x := range distinct {
			var tree string
			if err := db.QueryRowContext(ctx, "SELECT json_serialize_sql(?::VARCHAR)::VARCHAR", x).Scan(&tree); err != nil {
				return nil, nil, fmt.Errorf("SQL parser: %w", err)
			}
			var r sql.NullString
			if isParsed(tree) && db.QueryRowContext(ctx, "SELECT json_deserialize_sql(?::JSON)", tree).Scan(&r) != nil {
				r = sql.NullString{}
			}
			got[x] = out{tree, r.String}
		}
	}
	trees, rendered = make([]string, len(texts)), make([]string, len(texts))
	for i, t := range texts {
		trees[i], rendered[i] = got[t].tree, got[t].sql
	}
	return trees, rendered, nil
}

func (p *Parser) serializeAll(ctx context.Context, db *sql.DB, texts []string, put func(x, tree, sql string)) error {
	rows, err := db.QueryContext(ctx, serializeSQL, texts)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var x, tree string
		var r sql.NullString
		if err := rows.Scan(&x, &tree, &r); err != nil {
			return err
		}
		put(x, tree, r.String)
	}
	return rows.Err()
}

// isParsed reports whether a json_serialize_sql output is a parse tree
// (not an error).
func isParsed(tree string) bool {
	var res struct {
		Error bool `json:"error"`
	}
	return json.Unmarshal([]byte(tree), &res) == nil && !res.Error
}

// Deterministic implements validate.SQL: the built-in scalar functions
// of stability CONSISTENT in every overload (the engine's macros, such as
// the Spark SQL front end's, are not built in).
func (p *Parser) Deterministic() ([]string, error) {
	db, err := p.database()
	if err != nil {
		return nil, err
	}
	rows, err := db.QueryContext(context.Background(), `SELECT function_name FROM duckdb_functions() WHERE internal
		GROUP BY function_name HAVING bool_and(function_type = 'scalar' AND stability = 'CONSISTENT') ORDER BY 1`)
	if err != nil {
		return nil, fmt.Errorf("SQL parser: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, fmt.Errorf("SQL parser: %w", err)
		}
		out = append(out, name)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("SQL parser: %w", err)
	}
	return out, nil
}
