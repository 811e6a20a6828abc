package sparksql

import (
	"strings"
)

// parse_url and try_parse_url read the URL as java.net.URI does (package
// javauri, run by the local engine's spark_url_check and spark_parse_url):
// a URL Java rejects is INVALID_URL (try_parse_url: NULL), one javauri
// does not judge (an IPv6 scope id) stops the run. The part and the query
// key are literals; the key is, as in Spark, a Java regular expression in
// (&|^)key=([^&]*), its group 2 the value.
func parseURL(name string, try bool) *fnDef {
	return fn(name, Rewritten, 2, 3, func(c *fcall) (*rx, error) {
		// Spark's ParseUrl takes strings only (no implicit cast).
		for i, a := range c.args {
			if k := a.t.Kind; k != KString && k != KVoid {
				return nil, c.wrongType(i, "\"STRING\"")
			}
		}
		u, err := c.str(0)
		if err != nil {
			return nil, err
		}
		part, null, err := c.litStr(1, "URL part")
		if err != nil {
			return nil, err
		}
		if null {
			return c.out(tString, "CAST(NULL AS VARCHAR)"), nil
		}
		value := "spark_parse_url(" + u.sql + ", " + duckString(part) + ")"
		if len(c.args) == 3 {
			key, null, err := c.litStr(2, "query key")
			if err != nil {
				return nil, err
			}
			if null {
				return c.out(tString, "CAST(NULL AS VARCHAR)"), nil
			}
			if part != "QUERY" {
				value = "CAST(NULL AS VARCHAR)"
			} else {
				if strings.ContainsAny(key, `()|$\`) {
					return nil, unsupported(c.argPos(2), "", "a query key with (, ), |, $ or \\ in %s (Spark reads the key as a regular expression)", c.def.name)
				}
				re, err := javaToRE2("(&|^)" + key + "=([^&]*)")
				if err != nil {
					return nil, unsupported(c.argPos(2), "", "the query key '%s' in %s (Spark reads it as a regular expression: %v)", key, c.def.name, err)
				}
				pat := duckString(re.re2)
				q := "spark_parse_url(" + u.sql + ", 'QUERY')"
				value = "CASE WHEN regexp_matches(" + q + ", " + pat + ") THEN regexp_extract(" + q + ", " + pat + ", 2) END"
			}
		}
		invalid := "CAST(NULL AS VARCHAR)"
		if !try {
			invalid = "error('[INVALID_URL] The url is invalid: ' || " + u.sql + " || '. Use `try_parse_url` to tolerate invalid URL and return NULL instead.')"
		}
		unsup := "error('[LOCALLY_UNSUPPORTED.PARSE_URL] " + c.def.name + " of a URL whose IPv6 host the local run does not judge as java.net.URI does: ' || " + u.sql + ")"
		return c.out(tString, "CASE WHEN "+u.sql+" IS NULL THEN NULL ELSE CASE spark_url_check("+u.sql+") WHEN 'invalid' THEN "+invalid+" WHEN 'unsupported' THEN "+unsup+" ELSE "+value+" END END"), nil
	})
}

func urlFuncs() []*fnDef {
	out := []*fnDef{parseURL("parse_url", false), parseURL("try_parse_url", true)}
	for _, d := range out {
		d.note = "as java.net.URI parses; the part and the query key must be literals"
	}
	return out
}
