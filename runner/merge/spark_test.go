package merge

import (
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace"
)

// TestSparkPlan: for the Spark engine the merge is Laktory's in Spark SQL:
// the deduplicated source lists its columns (Spark has no EXCLUDE), the
// hash is Spark's sha2(concat_ws('~', ...), 256) over the update columns
// as they are, the changes already in the table are a LEFT ANTI JOIN, and
// the table created before the first merge has Spark's types.
func TestSparkPlan(t *testing.T) {
	o := &workspace.MergeCDC{PrimaryKeys: []string{"id"}, OrderBy: "ts", SCDType: 2, StartAt: "__start_at", EndAt: "__end_at"}
	b := Batch{Relation: "b", Spark: true, Columns: []Column{{"id", "bigint"}, {"v", "array<string>"}, {"ts", "timestamp"}}}
	p, err := New(o, b)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := p.SCD2Changes("(t)", []string{"id", "v", "ts", workspace.HashColumn, "__start_at", "__end_at"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`sha2(concat_ws('~', "v", "ts"), 256)`, " LEFT ANTI JOIN "} {
		if !strings.Contains(changes, want) {
			t.Errorf("the changes lack %s:\n%s", want, changes)
		}
	}
	var types []string
	for _, c := range p.TargetColumns() {
		dt, err := sparkType(c.Type)
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, dt.TypeName())
	}
	if got := strings.Join(types, " "); got != "long array<string> timestamp string timestamp timestamp" {
		t.Errorf("target types %s", got)
	}
	o1 := &workspace.MergeCDC{PrimaryKeys: []string{"id"}, SCDType: 1}
	p1, err := New(o1, b)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := p1.SCD1([]string{"id", "v", "ts"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(spec.Source, `SELECT "id", "v", "ts", __laktory_delete FROM (`) || strings.Contains(spec.Source, "EXCLUDE") {
		t.Errorf("SCD1 source %s", spec.Source)
	}
	b.Spark = false
	local, _ := New(o1, b)
	if spec, _ := local.SCD1([]string{"id", "v", "ts"}); !strings.Contains(spec.Source, "EXCLUDE") {
		t.Errorf("the local source changed: %s", spec.Source)
	}
}

// TestSparkType: Spark's type names as its DESCRIBE prints them.
func TestSparkType(t *testing.T) {
	for in, want := range map[string]string{
		"bigint": "long", "INT": "integer", "decimal(10, 2)": "decimal(10,2)", "varchar(5)": "string", "timestamp_ntz": "timestamp_ntz",
		"map<string,array<int>>": "map<string,array<integer>>", "struct<a:bigint,b:struct<c:string>>": "struct<a:long,b:struct<c:string>>",
	} {
		dt, err := sparkType(in)
		if err != nil || dt.TypeName() != want {
			t.Errorf("%s: %v %v, want %s", in, dt, err, want)
		}
	}
	if _, err := sparkType("interval day"); err == nil {
		t.Error("an interval type parsed")
	}
}
