package local

import (
	"database/sql/driver"
	"fmt"
	"sync"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/laktory/workbench/runner/sparksql/numfmt"
)

// SparkToNumber and SparkToChar are the names of the scalar functions
// RegisterFunctions adds for Spark's number format language (package
// numfmt): spark_to_number(s, format) is the number to_number reads from s
// as a plain decimal string, NULL where s does not match the format;
// spark_to_char(d, format) is the text to_char writes for d, a decimal as
// a plain string. The Spark SQL front end checks the format (Spark's
// analysis errors) and casts and raises around them.
const (
	SparkToNumber = "spark_to_number"
	SparkToChar   = "spark_to_char"
)

// numFormats are the compiled formats by their text.
var numFormats sync.Map

func compiledFormat(f string) (*numfmt.Format, error) {
	if c, ok := numFormats.Load(f); ok {
		return c.(*numfmt.Format), nil
	}
	c, err := numfmt.Compile(f)
	if err != nil {
		return nil, err
	}
	numFormats.Store(f, c)
	return c, nil
}

type numFmtFunc struct {
	name string
	str  duckdb.TypeInfo
}

func newNumFmt(name string) (*numFmtFunc, error) {
	s, err := duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
	if err != nil {
		return nil, err
	}
	return &numFmtFunc{name: name, str: s}, nil
}

func (f *numFmtFunc) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{f.str, f.str}, ResultTypeInfo: f.str}
}

func (f *numFmtFunc) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(v []driver.Value) (any, error) {
		s, ok1 := v[0].(string)
		format, ok2 := v[1].(string)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("%s: unexpected arguments %T, %T", f.name, v[0], v[1])
		}
		c, err := compiledFormat(format)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
		var out string
		if f.name == SparkToNumber {
			out, ok1 = c.Parse(s)
		} else {
			out, ok1 = c.Format(s)
		}
		if !ok1 {
			return nil, nil
		}
		return out, nil
	}}
}
