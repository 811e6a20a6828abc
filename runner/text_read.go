package runner

import (
	"fmt"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// textOptions are the reader_kwargs of a TEXT source local runs apply:
// Spark's text reader's wholetext (one row per file). Others (lineSep) are
// refused before the run (unsupported).
var textOptions = []string{"wholetext"}

// textListSQL reads text files as Spark's text reader does (format TEXT,
// PYSPARK only): one string column `value`, a row per line (a line ends at
// \n, \r\n or \r, Spark's default line separators; the end of the file
// after its last separator is no line, so an empty file has no rows), in
// the order of the files and their lines; with wholetext, a row per file
// that is not empty (as pyspark 4.2 reads them).
func textListSQL(list string, src *workspace.Source) string {
	if v, ok := readerOpt(src, "wholetext"); ok && truthy(v) {
		// Spark lists no empty file: an empty file has no row.
		return fmt.Sprintf("SELECT content AS value FROM read_text(%s) WHERE content <> '' ORDER BY filename", list)
	}
	const sep = `'\r\n|\r|\n'`
	lines := fmt.Sprintf(`CASE WHEN content = '' THEN []::VARCHAR[]
		WHEN regexp_matches(content, '(\r\n|\r|\n)$') THEN list_slice(regexp_split_to_array(content, %[1]s), 1, -2)
		ELSE regexp_split_to_array(content, %[1]s) END`, sep)
	return strings.Join(strings.Fields(fmt.Sprintf(`SELECT value FROM (SELECT filename, unnest(lines) AS value, generate_subscripts(lines, 1) AS i
		FROM (SELECT filename, %s AS lines FROM read_text(%s))) ORDER BY filename, i`, lines, list)), " ")
}

// unappliedOption is a reader_kwargs key of src that applied does not
// name (without case, as Spark's options), "" when there is none.
func unappliedOption(src *workspace.Source, applied []string) string {
	for k := range src.ReaderKwargs {
		ok := false
		for _, a := range applied {
			ok = ok || strings.EqualFold(k, a)
		}
		if !ok {
			return k
		}
	}
	return ""
}
