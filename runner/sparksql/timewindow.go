package sparksql

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/laktory/workbench/runner/sqlfront"
)

// A tumbling time window in GROUP BY: Spark's TimeWindowing rule replaces
// window(ts, duration[, slide[, start]]) (slide equal to the duration) by
// a column `window` of struct<start, end>, computed below the aggregate
// on the microseconds of ts (a day starts at midnight UTC, whatever the
// session time zone), and filters out the rows whose ts is NULL.

// timeWindowCol is the window column of a SELECT: the call's text (how
// GROUP BY, the select list and HAVING spell it) and the column.
type timeWindowCol struct {
	text string
	col  *column
}

// timeWindowCall finds the window(...) calls of a SELECT's GROUP BY: the
// one call (nil without one), refusing session_window, window_time and a
// second, different window.
func timeWindowCall(s *Select) (*Call, error) {
	if s.GroupBy == nil {
		return nil, nil
	}
	var found *Call
	var err error
	for _, it := range s.GroupBy.Items {
		walkExpr(it, func(e Expr) bool {
			c, ok := e.(*Call)
			if !ok || err != nil {
				return err == nil
			}
			switch name := strings.ToLower(c.Name.Name); name {
			case "session_window", "window_time":
				d := lookupFunc(name)
				err = unsupported(c.P, d.note, "the time window %s(...) in GROUP BY", name)
			case "window":
				switch {
				case c.Over != nil:
				case found == nil:
					found = c
				case FormatExpr(found) != FormatExpr(c):
					err = unsupported(c.P, "group by one time window", "two time windows in GROUP BY")
				}
			}
			return err == nil
		})
	}
	return found, err
}

// windowMicros reads a duration argument of window(): a string literal
// of an interval without months ('10 minutes', '1 day') or an integral
// literal of microseconds. positive requires it to be above 0.
func windowMicros(x *rx, pos int, positive bool) (int64, error) {
	if x.lit == nil || !(x.lit.Kind == LitString || x.t.isIntegral()) {
		return 0, sparkErr(pos, "_LEGACY_ERROR_TEMP_1207", "The duration and time inputs to window must be an integer, long or string literal.")
	}
	var us int64
	if x.lit.Kind != LitString {
		n, ok := new(big.Int).SetString(x.lit.Value, 10)
		if !ok || !n.IsInt64() {
			return 0, unsupported(pos, "", "the window duration %s", x.lit.Value)
		}
		us = n.Int64()
	} else {
		text := strings.TrimSpace(x.lit.Value)
		if low := strings.ToLower(text); strings.HasPrefix(low, "interval ") {
			text = strings.TrimSpace(text[len("interval "):])
		}
		fs := strings.Fields(text)
		bad := func() error {
			return sparkErr(pos, "CANNOT_PARSE_INTERVAL", "Unable to parse '%s'. Please ensure that the value provided is in a valid format for defining an interval. You can reference the documentation for the correct format. If the issue persists, please double check that the input value is not null or empty and try again.", x.lit.Value)
		}
		if len(fs) == 0 || len(fs)%2 != 0 {
			return 0, bad()
		}
		total := new(big.Rat)
		for i := 0; i < len(fs); i += 2 {
			unit, ok := sqlfront.IntervalUnits[strings.ToUpper(fs[i+1])]
			q, okn := new(big.Rat).SetString(fs[i])
			if !ok || !okn {
				return 0, bad()
			}
			if unit == "YEAR" || unit == "MONTH" {
				return 0, unsupported(pos, "use days, hours, minutes or seconds", "a window duration in months or years (Spark refuses it)")
			}
			total.Add(total, new(big.Rat).Mul(q, new(big.Rat).SetInt64(microsPer[unit])))
		}
		if !total.IsInt() || !total.Num().IsInt64() {
			return 0, unsupported(pos, "", "the window duration '%s'", x.lit.Value)
		}
		us = total.Num().Int64()
	}
	if positive && us <= 0 {
		return 0, unsupported(pos, "give a positive duration", "a window duration of %d microseconds (Spark refuses it)", us)
	}
	return us, nil
}

// timeWindow resolves the GROUP BY's window(...) call over the FROM scope
// sc: the column it becomes, and the condition the rows must meet.
// A sliding window (slide below the duration) puts each row in the
// ceil(duration / slide) windows that may hold it, as Spark's Expand
// does, in a join with range(n) (from, added to the FROM clause); the condition
// keeps the windows start <= ts < end.
func (r *resolver) timeWindow(c *Call, sc *scope) (tw *timeWindowCol, cond *rx, from string, err error) {
	tw, cond, from, err = r.timeWindowOf(c, sc)
	return
}

func (r *resolver) timeWindowOf(c *Call, sc *scope) (*timeWindowCol, *rx, string, error) {
	if len(c.Args) < 2 || len(c.Args) > 4 {
		return nil, nil, "", sparkErr(c.P, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "The `window` requires [2, 3, 4] parameters but the actual number is %d.", len(c.Args))
	}
	var args []*rx
	for _, a := range c.Args {
		x, err := r.expr(a, sc, &ectx{})
		if err != nil {
			return nil, nil, "", err
		}
		args = append(args, x)
	}
	ts := args[0]
	switch ts.t.Kind {
	case KTimestamp, KTimestampNTZ:
	case KString, KDate:
		x, err := r.cast(ts, tTS, castImplicit)
		if err != nil {
			return nil, nil, "", err
		}
		ts = x
	default:
		return nil, nil, "", unsupported(c.Args[0].Pos(), "", "a time window over %s values", strings.ToUpper(ts.t.String()))
	}
	dur, err := windowMicros(args[1], c.Args[1].Pos(), true)
	if err != nil {
		return nil, nil, "", err
	}
	slide := dur
	if len(args) >= 3 {
		if slide, err = windowMicros(args[2], c.Args[2].Pos(), true); err != nil {
			return nil, nil, "", err
		}
		if slide > dur {
			// Spark's TimeWindow type check (TimeWindowing leaves the
			// call, so no column `window` exists; see selectRel).
			return nil, nil, "", sparkErr(c.P, slideClass, "Cannot resolve \"%s\" due to data type mismatch: The `slide_duration`(%dL) must be <= the `window_duration`(%dL).", FormatExpr(c), slide, dur)
		}
	}
	var start int64
	if len(args) == 4 {
		if start, err = windowMicros(args[3], c.Args[3].Pos(), false); err != nil {
			return nil, nil, "", err
		}
	}
	us := "epoch_us(" + ts.sql + ")"
	last := fmt.Sprintf("(%[1]s - to_microseconds(((%[2]s - %[3]d) %% %[4]d + %[4]d) %% %[4]d))", ts.sql, us, start, slide)
	t := &Type{Kind: KStruct, Fields: []Field{{Name: "start", Type: ts.t}, {Name: "end", Type: ts.t}}}
	notNull := mk(tBool, ts.sql+" IS NOT NULL", "isnotnull("+ts.name+")", ts)
	if slide == dur {
		sql := fmt.Sprintf("list_transform([%s], m_tw -> struct_pack(\"start\" := m_tw, \"end\" := m_tw + to_microseconds(CAST(%d AS BIGINT))))[1]", last, dur)
		return &timeWindowCol{text: FormatExpr(c), col: &column{name: "window", t: t, sql: sql}}, notNull, "", nil
	}
	n := (dur + slide - 1) / slide
	rel := r.lambdaName()
	from := fmt.Sprintf("CROSS JOIN range(%d) AS %s(m_twi)", n, rel)
	ws := fmt.Sprintf("(%s - to_microseconds(%s.m_twi * %d))", last, rel, slide)
	sql := fmt.Sprintf("struct_pack(\"start\" := %[1]s, \"end\" := %[1]s + to_microseconds(CAST(%[2]d AS BIGINT)))", ws, dur)
	cond := mk(tBool, fmt.Sprintf("(%[1]s IS NOT NULL AND %[2]s + to_microseconds(CAST(%[3]d AS BIGINT)) > %[1]s AND %[2]s <= %[1]s)", ts.sql, ws, dur), "isnotnull("+ts.name+")", ts)
	return &timeWindowCol{text: FormatExpr(c), col: &column{name: "window", t: t, sql: sql}}, cond, from, nil
}

// slideClass is Spark's error for a window whose slide is longer than its
// duration.
const slideClass = "DATATYPE_MISMATCH.PARAMETER_CONSTRAINT_VIOLATION"

// slideTooLong is the column a GROUP BY's window(...) call with a slide
// longer than its duration leaves: Spark's TimeWindowing rule does not
// replace the call, so the column `window` does not exist (window.start
// is UNRESOLVED_COLUMN, which Spark reports before the type check), the
// call itself resolves (window(...).start reads it) and the query fails
// with the type check's error once the rest of it resolved.
func slideTooLong(c *Call, err error) (*timeWindowCol, bool) {
	var pe *Error
	if !errors.As(err, &pe) || pe.Class != slideClass {
		return nil, false
	}
	t := &Type{Kind: KStruct, Fields: []Field{{Name: "start", Type: tTS}, {Name: "end", Type: tTS}}}
	return &timeWindowCol{text: FormatExpr(c), col: &column{name: "", t: t, sql: "CAST(NULL AS " + t.DuckDB() + ")"}}, true
}

// timeWindowRef is the window column a window(...) call names in the
// scope of its SELECT (nil: none).
func timeWindowRef(n *Call, sc *scope) *column {
	text := ""
	for s := sc; s != nil; s = s.parent {
		if s.timeWindow != nil {
			if text == "" {
				text = FormatExpr(n)
			}
			if s.timeWindow.text == text {
				return s.timeWindow.col
			}
		}
	}
	return nil
}
