package frame

import (
	"fmt"
	"sort"
	"strings"
)

// APIMarkdown is the table of what func_name steps may call, per
// dataframe_api and backend, as docs/dataframe-api.md shows it (generated:
// go test ./runner/frame -run TestDocCurrent -update-docs).
func APIMarkdown() string {
	var b strings.Builder
	section := func(title string, groups []docGroup) {
		fmt.Fprintf(&b, "### %s\n\n", title)
		for _, g := range groups {
			var yes, no, fails []string
			for _, n := range g.names() {
				switch {
				case notFrames[g.prefix+n] != "":
					fails = append(fails, "`"+n+"`")
				case g.has(n):
					yes = append(yes, "`"+n+"`")
				default:
					no = append(no, "`"+n+"`")
				}
			}
			fmt.Fprintf(&b, "**%s** (%d of %d): %s.\n\n", g.title, len(yes), len(yes)+len(no)+len(fails), strings.Join(yes, ", "))
			if len(fails) > 0 {
				fmt.Fprintf(&b, "Laktory fails on (they return no DataFrame; a validation error says so): %s.\n\n", strings.Join(fails, ", "))
			}
			if len(no) > 0 {
				fmt.Fprintf(&b, "<details><summary>not translated (%d): refused at validation, naming them</summary>\n\n%s.\n\n</details>\n\n", len(no), strings.Join(no, ", "))
			}
		}
	}
	plImpl := func(key string) bool { _, ok := plImpls[key]; return ok }
	spImpl := func(key string) bool { _, ok := spImpls[key]; return ok }
	method := func(key string) bool { _, ok := methods[key]; return ok }
	spNw := func(key string) bool {
		if _, ok := spNwMethods[key]; ok {
			return true
		}
		return sparkShared[key] && method(key)
	}
	exprGroups := func(fam string, impl func(string) bool) []docGroup {
		gs := []docGroup{{title: "Expression methods (`" + fam + ".col(...).x`)", owner: fam + ".Expr", prefix: fam + ".Expr.", has2: impl, skipNS: true}}
		for _, ns := range []string{"str", "dt", "list", "struct", "laktory"} {
			if _, ok := libraryNames[fam+".Expr."+ns]; ok {
				gs = append(gs, docGroup{title: "`." + ns + "`", owner: fam + ".Expr." + ns, prefix: fam + ".Expr." + ns + ".", has2: impl})
			}
		}
		return gs
	}
	nwPolars := append([]docGroup{
		{title: "DataFrame methods (narwhals LazyFrame)", owner: "nw.LazyFrame", prefix: "nw.LazyFrame.", has2: method, skipNS: true, frame: true},
		{title: "`laktory.*` (Laktory's namespace)", owner: "nw.LazyFrame.laktory", prefix: "nw.LazyFrame.laktory.", has2: method, frame: true},
		{title: "Functions (`nw.x`, `col`, `lit`, `sql_expr`)", owner: "nw", prefix: "nw.", has2: plImpl, functions: true},
	}, exprGroups("nw", plImpl)...)
	plNative := append([]docGroup{
		{title: "DataFrame methods (Polars LazyFrame)", owner: "pl.LazyFrame", prefix: "pl.LazyFrame.", has2: method, frame: true},
		{title: "Functions (`pl.x`, `col`, `lit`, `sql_expr`)", owner: "pl", prefix: "pl.", has2: plImpl, functions: true},
	}, exprGroups("pl", plImpl)...)
	nwSpark := append([]docGroup{
		{title: "DataFrame methods (narwhals LazyFrame)", owner: "nw.LazyFrame", prefix: "nw.LazyFrame.", has2: spNw, skipNS: true, frame: true},
		{title: "`laktory.*` (Laktory's namespace)", owner: "nw.LazyFrame.laktory", prefix: "nw.LazyFrame.laktory.", has2: spNw, frame: true},
		{title: "Functions (`nw.x`, `col`, `lit`, `sql_expr`)", owner: "nw", prefix: "nw.", has2: spImpl, functions: true},
	}, exprGroups("nw", spImpl)...)
	spNative := []docGroup{
		{title: "DataFrame methods (PySpark DataFrame)", owner: "spark.DataFrame", prefix: "spark.DataFrame.", has2: method, frame: true},
		{title: "Functions (`F.x`, `col`, `expr`, `lit`)", owner: "F", prefix: "F.", has2: func(k string) bool {
			_, ok := sparkFuncSpecs[strings.TrimPrefix(k, "F.")]
			return ok || spImpl(k)
		}, functions: true},
		{title: "Column methods (`F.col(...).x`)", owner: "F.Column", prefix: "F.Column.", has2: spImpl},
		{title: "Types (`T.x`)", owner: "T", prefix: "T.", has2: func(k string) bool {
			switch strings.TrimPrefix(k, "T.") {
			case "IntegerType", "LongType", "ShortType", "ByteType", "StringType", "DoubleType", "FloatType", "BooleanType",
				"DateType", "TimestampType", "TimestampNTZType", "BinaryType", "NullType", "DecimalType", "ArrayType":
				return true
			}
			return false
		}},
	}
	b.WriteString("## POLARS backend\n\n")
	section("dataframe_api: NARWHALS (Laktory's default)", nwPolars)
	section("dataframe_api: NATIVE (Polars)", plNative)
	b.WriteString("## PYSPARK backend\n\n")
	section("dataframe_api: NARWHALS (Laktory's default)", nwSpark)
	section("dataframe_api: NATIVE (PySpark)", spNative)
	return b.String()
}

// docGroup is one owner's names in the table.
type docGroup struct {
	title, owner, prefix string
	has2                 func(key string) bool
	skipNS               bool // leave out namespaces (listed on their own)
	frame                bool // DataFrame methods: callables only
	functions            bool // module functions: not data types or submodules
}

func (g docGroup) names() []string {
	var out []string
	for n, kind := range libraryNames[g.owner] {
		switch {
		case g.skipNS && exprNamespaces[n], g.skipNS && n == "laktory":
		case g.frame && kind != 'c':
		case g.functions && (kind != 'c' || isDtypeName(n) || isPolarsDtype(n) || strings.Contains(n, "Frame") || n == "Expr" || n == "Series"):
		default:
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

func (g docGroup) has(n string) bool { return g.has2(g.prefix + n) }
