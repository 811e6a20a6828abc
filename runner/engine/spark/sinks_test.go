package spark

import (
	"encoding/json"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/laktory/workbench/delta"
)

// TestMergeSQL: a MERGE spec is Spark's MERGE INTO the table's path, the
// keys (null-safe ones with <=>) and the target condition in ON, the
// clauses in order with their conditions.
func TestMergeSQL(t *testing.T) {
	spec := delta.MergeSpec{
		Source:          `SELECT * FROM "b"`,
		Keys:            []delta.MergeKey{{Target: "id", Source: "id"}, {Target: "r", Source: "r", NullSafe: true}},
		TargetCondition: `target."end" IS NULL`,
		Matched: []delta.MergeClause{
			{Action: delta.MergeUpdate, Condition: `NOT source."d"`, Set: []delta.MergeAssignment{{Column: "v", Expr: `source."v"`}}},
			{Action: delta.MergeDelete, Condition: `source."d"`},
		},
		NotMatched: []delta.MergeClause{{Action: delta.MergeInsert, Set: []delta.MergeAssignment{{Column: "id", Expr: `source."id"`}, {Column: "v", Expr: `source."v"`}}}},
	}
	got, err := mergeSQL("/lake/t`1", spec)
	if err != nil {
		t.Fatal(err)
	}
	want := "MERGE INTO delta.`/lake/t``1` AS target USING (SELECT * FROM \"b\") AS source ON target.\"id\" = source.\"id\" AND target.\"r\" <=> source.\"r\" AND (target.\"end\" IS NULL)" +
		" WHEN MATCHED AND (NOT source.\"d\") THEN UPDATE SET \"v\" = source.\"v\" WHEN MATCHED AND (source.\"d\") THEN DELETE" +
		" WHEN NOT MATCHED THEN INSERT (\"id\", \"v\") VALUES (source.\"id\", source.\"v\")"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := mergeSQL("/lake/t", delta.MergeSpec{Source: "SELECT 1"}); err == nil {
		t.Fatal("a MERGE without keys")
	}
}

// TestWriteCommand: a file sink is Spark Connect's WriteOperation of the
// rows' SQL into a new folder (ERROR_IF_EXISTS), CSV with a header, the
// partition columns given.
func TestWriteCommand(t *testing.T) {
	b, err := json.Marshal(writeCommand("/out/x.parts", "SELECT 1 AS a", "csv", []string{"p"}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"writeOperation":{"input":{"sql":{"query":"SELECT 1 AS a"}},"mode":"SAVE_MODE_ERROR_IF_EXISTS","options":{"header":"true"},"partitioningColumns":["p"],"path":"/out/x.parts","source":"csv"}}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	// The command is a spark.connect.Command the client's protos accept.
	cmd, err := newMessage("spark.connect.Command")
	if err != nil {
		t.Fatal(err)
	}
	if err := protojson.Unmarshal(b, cmd); err != nil {
		t.Fatalf("not a spark.connect.Command: %v", err)
	}
}

// TestCreateEmpty: a MERGE target before its first merge is a CREATE
// TABLE of the definition's columns, in Spark's type names.
func TestCreateEmpty(t *testing.T) {
	tx := &Txn{path: "/lake/m", def: delta.TableDefinition{Description: "d", Schema: &delta.StructType{Fields: []*delta.StructField{
		{Name: "id", Type: delta.LongType, Nullable: true}, {Name: "amt", Type: delta.DecimalType{Precision: 10, Scale: 2}, Nullable: false},
		{Name: "tags", Type: &delta.ArrayType{ElementType: delta.StringType, ContainsNull: true}, Nullable: true}}}}}
	stmt, err := tx.statement()
	if err != nil {
		t.Fatal(err)
	}
	want := "CREATE TABLE delta.`/lake/m` (\"id\" long, \"amt\" decimal(10,2) NOT NULL, \"tags\" array<string>) USING delta COMMENT 'd'"
	if stmt != want {
		t.Fatalf("got\n%s\nwant\n%s", stmt, want)
	}
}
