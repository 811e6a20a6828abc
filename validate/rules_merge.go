package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// mergeSink checks a sink's MERGE options as Laktory 0.13.1 does when it
// builds the model (DataSinkMergeCDCOptions and the sink's validators),
// plus what makes Laktory's merge fail on Spark at run time.
func (c *checker) mergeSink(n *workspace.Node, sk *workspace.Sink) {
	o := sk.MergeCDC
	if sk.IsMerge() && o == nil {
		c.add(sk.At("mode"), Error, CodeMergeOptions, "If 'MERGE' `mode` is selected, `merge_cdc_options` must be specified.",
			"add `merge_cdc_options: {primary_keys: [...], order_by: ...}`")
		return
	}
	if o == nil {
		return
	}
	if len(o.PrimaryKeys) == 0 {
		c.add(o.Pos, Error, CodeMergeOptions, fmt.Sprintf("`merge_cdc_options` of %s sets no `primary_keys`: Laktory's merge fails without them", sk.Describe()),
			"add `primary_keys: [...]`, the columns that identify a row")
	}
	if o.SCDType == 2 && o.OrderBy == "" {
		c.add(o.Pos, Error, CodeMergeOptions, "SCD Type 2 merge requires specific of `order_by` attribute.", "add `order_by:`, the column sequencing the changes")
	}
	if len(o.IncludeColumns) > 0 && len(o.ExcludeColumns) > 0 {
		c.add(o.At("exclude_columns"), Error, CodeMergeOptions, "`include_columns` and `exclude_columns` attributes are mutually exclusive.",
			"keep one of them")
	}
	if o.OrderBy != "" && slices.Contains(o.ExcludeColumns, o.OrderBy) {
		c.add(o.At("exclude_columns"), Error, CodeMergeOptions,
			fmt.Sprintf("`order_by` '%s' can't be excluded as it will prevent proper merge of out-of-sequence records.", o.OrderBy),
			"remove it from `exclude_columns`")
	}
	if o.SCDType == 1 && o.OrderBy != "" && len(o.IncludeColumns) > 0 && !slices.ContainsFunc(o.IncludeColumns, func(c string) bool { return strings.EqualFold(c, o.OrderBy) }) {
		c.add(o.At("include_columns"), Error, CodeMergeOptions,
			fmt.Sprintf("`order_by` '%s' is not in `include_columns`: the table Laktory creates lacks it, and its MERGE (source.%[1]s > target.%[1]s) fails on Spark", o.OrderBy),
			"add it to `include_columns`")
	}
	if o.SCDType == 1 && o.DeleteWhere != "" && !o.DeleteWhereAsWritten() {
		c.add(o.At("delete_where"), Error, CodeMergeDeleteWhere,
			fmt.Sprintf("with SCD type 1, Laktory 0.13.1 prefixes every word of `delete_where` with `source.` by text replacement, which turns `%s` into `%s`: Spark fails on it, or evaluates something else",
				o.DeleteWhere, o.SourceDeleteWhere()),
			"write it as comparisons of bare column names with literals, joined by AND, OR and NOT, each column named once (e.g. `op = 'D'`); SCD type 2 takes delete_where as written")
	}
}
