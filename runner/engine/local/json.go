package local

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/laktory/workbench/runner/sparksql/jackson"
)

// SparkGetJSONObject, SparkJSONRead and SparkJSONPretty are the names of
// the scalar functions RegisterFunctions adds for Spark's JSON functions
// (package jackson, Jackson's reading as Spark configures it):
// spark_get_json_object(json, path) is get_json_object; spark_json_read(
// json, features) is the first JSON value of json as strict JSON, as
// from_json's reader reads it with the features (letters: c comments, u
// unquoted field names, q single quotes), NULL for blank text and '!' for
// a malformed record; spark_json_pretty(json) is to_json's text as its
// pretty option writes it. Text the package does not reproduce stops the
// run with [LOCALLY_UNSUPPORTED.JSON_TEXT].
const (
	SparkGetJSONObject = "spark_get_json_object"
	SparkJSONRead      = "spark_json_read"
	SparkJSONPretty    = "spark_json_pretty"
)

// jsonPaths are the parsed paths by their text (nil: no path), at most
// maxJSONPaths of them: a path computed per row (a column of paths) is
// parsed each time rather than kept for the life of the process.
var (
	jsonPaths  sync.Map
	jsonPathsN atomic.Int64
)

const maxJSONPaths = 1024

func parsedPath(s string) (*jackson.Path, error) {
	if p, ok := jsonPaths.Load(s); ok {
		return p.(*jackson.Path), nil
	}
	p, ok, err := jackson.ParsePath(s)
	if err != nil {
		return nil, err
	}
	if !ok {
		p = nil
	}
	if jsonPathsN.Add(1) <= maxJSONPaths {
		jsonPaths.Store(s, p)
	}
	return p, nil
}

type jsonFunc struct {
	name string
	str  duckdb.TypeInfo
}

func (f *jsonFunc) Config() duckdb.ScalarFuncConfig {
	in := []duckdb.TypeInfo{f.str, f.str}
	if f.name == SparkJSONPretty {
		in = in[:1]
	}
	return duckdb.ScalarFuncConfig{InputTypeInfos: in, ResultTypeInfo: f.str}
}

func unsupportedJSON(err error, s string) error {
	if len(s) > 60 {
		n := 60
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n]
	}
	return fmt.Errorf("[LOCALLY_UNSUPPORTED.JSON_TEXT] %v (Spark's Jackson reading is not reproduced here): %s", err, s)
}

func (f *jsonFunc) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(v []driver.Value) (any, error) {
		s, ok := v[0].(string)
		if !ok {
			return nil, fmt.Errorf("%s: unexpected argument %T", f.name, v[0])
		}
		if f.name == SparkJSONPretty {
			return jackson.Pretty(s), nil
		}
		arg, ok := v[1].(string)
		if !ok {
			return nil, fmt.Errorf("%s: unexpected argument %T", f.name, v[1])
		}
		if f.name == SparkGetJSONObject {
			p, err := parsedPath(arg)
			if err != nil {
				return nil, unsupportedJSON(err, arg)
			}
			if p == nil {
				return nil, nil
			}
			out, ok, err := jackson.GetJSONObject(s, p)
			if err != nil {
				return nil, unsupportedJSON(err, s)
			}
			if !ok {
				return nil, nil
			}
			return out, nil
		}
		feat := jackson.Features{
			Comments:      strings.Contains(arg, "c"),
			UnquotedNames: strings.Contains(arg, "u"),
			SingleQuotes:  strings.Contains(arg, "q"),
			NonNumeric:    true,
		}
		out, ok, err := jackson.Normalize(s, feat)
		switch {
		case errors.Is(err, jackson.ErrMalformed):
			return "!", nil
		case err != nil:
			return nil, unsupportedJSON(err, s)
		case !ok:
			return nil, nil
		}
		return out, nil
	}}
}
