package local

import (
	"database/sql/driver"
	"errors"
	"fmt"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/laktory/workbench/runner/sparksql/javauri"
)

// SparkParseURL and SparkURLCheck are the names of the scalar functions
// RegisterFunctions adds for Spark's parse_url (package javauri, as
// java.net.URI parses): spark_parse_url(url, part) is the part, NULL where
// the URL has none or Java rejects it; spark_url_check(url) is NULL for a
// URL Java accepts, 'invalid' for one it rejects and 'unsupported' for one
// javauri does not judge. The Spark SQL front end raises around them.
const (
	SparkParseURL = "spark_parse_url"
	SparkURLCheck = "spark_url_check"
)

type urlFunc struct {
	name string
	str  duckdb.TypeInfo
}

func (f *urlFunc) Config() duckdb.ScalarFuncConfig {
	in := []duckdb.TypeInfo{f.str}
	if f.name == SparkParseURL {
		in = append(in, f.str)
	}
	return duckdb.ScalarFuncConfig{InputTypeInfos: in, ResultTypeInfo: f.str}
}

func (f *urlFunc) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(v []driver.Value) (any, error) {
		s, ok := v[0].(string)
		if !ok {
			return nil, fmt.Errorf("%s: unexpected argument %T", f.name, v[0])
		}
		u, err := javauri.Parse(s)
		if f.name == SparkURLCheck {
			switch {
			case err == nil:
				return nil, nil
			case errors.Is(err, javauri.ErrUnsupported):
				return "unsupported", nil
			}
			return "invalid", nil
		}
		if err != nil {
			return nil, nil
		}
		part, ok := v[1].(string)
		if !ok {
			return nil, fmt.Errorf("%s: unexpected part %T", f.name, v[1])
		}
		if p, ok := u.Part(part); ok {
			return p, nil
		}
		return nil, nil
	}}
}
