package workspace

import (
	"cmp"
	"fmt"
	"slices"
)

// Pos is where a value is declared: a file (absolute path) and a 1-based
// line and column. The zero Pos means "no position" (e.g. a run parameter).
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// IsZero reports whether p carries no position.
func (p Pos) IsZero() bool { return p.File == "" && p.Line == 0 }

func (p Pos) String() string {
	if p.IsZero() {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Severity grades a diagnostic.
type Severity int

// Severities, from the most to the least serious.
const (
	SeverityError Severity = iota
	SeverityWarning
	SeverityInfo
)

var severityNames = [...]string{"error", "warning", "info"}

func (s Severity) String() string {
	if s < 0 || int(s) >= len(severityNames) {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// MarshalText writes the severity as "error", "warning" or "info".
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads "error", "warning" or "info".
func (s *Severity) UnmarshalText(b []byte) error {
	for i, n := range severityNames {
		if string(b) == n {
			*s = Severity(i)
			return nil
		}
	}
	return fmt.Errorf("unknown severity %q", b)
}

// Diagnostic is one problem found in a workspace: where it is, how serious,
// a stable code, what is wrong and how to fix it. Load problems (YAML syntax,
// unknown keys, wrong types) and rule violations (package validate) share
// this type.
type Diagnostic struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Col      int      `json:"col"`
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`
	Hint     string   `json:"hint"`
}

// Pos returns the position of the diagnostic.
func (d Diagnostic) Pos() Pos { return Pos{File: d.File, Line: d.Line, Col: d.Col} }

func (d Diagnostic) String() string {
	s := fmt.Sprintf("%s:%d:%d: %s %s: %s", d.File, d.Line, d.Col, d.Severity, d.Code, d.Message)
	if d.Hint != "" {
		s += " (" + d.Hint + ")"
	}
	return s
}

// NewDiagnostic builds a diagnostic at p.
func NewDiagnostic(p Pos, sev Severity, code, msg, hint string) Diagnostic {
	return Diagnostic{File: p.File, Line: p.Line, Col: p.Col, Severity: sev, Code: code, Message: msg, Hint: hint}
}

// SortDiagnostics orders diagnostics by file, line, column, code and message,
// and drops exact duplicates (a file included twice reports once).
func SortDiagnostics(ds []Diagnostic) []Diagnostic {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col),
			cmp.Compare(a.Code, b.Code), cmp.Compare(a.Message, b.Message))
	})
	return slices.Compact(ds)
}

// HasErrors reports whether ds holds at least one error.
func HasErrors(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Codes of the diagnostics the loader reports. package validate documents
// every code, these included.
const (
	CodeYAMLSyntax        = "LK001" // the file is not valid YAML
	CodeUnknownKey        = "LK002" // a key the schema does not know
	CodeWrongType         = "LK003" // a value of the wrong type
	CodeBadEnum           = "LK004" // a value outside the allowed set
	CodeMissingField      = "LK005" // a required field is missing
	CodeInclude           = "LK006" // !use / !extend / !update cannot be resolved
	CodeRenamed           = "LK007" // a name Laktory renamed (orchestrator types, keys)
	CodeDuplicateKey      = "LK008" // a key declared twice in one mapping
	CodeUnresolvedVar     = "LK009" // ${vars.x} names no variable
	CodeExpression        = "LK010" // ${{ ... }} Python expressions are not evaluated
	CodeStackEnv          = "LK011" // --env names no environment of the stack
	CodeReadFile          = "LK012" // a file cannot be read
	CodeAmbiguousKind     = "LK013" // a source/sink whose type cannot be told
	CodeDuplicatePipe     = "LK014" // two pipelines with one name
	CodeConflictingKeys   = "LK015" // keys that exclude each other
	CodeUnsupportedValue  = "LK016" // a value Laktory rejects for this backend
	CodeLaktoryRejects    = "LK017" // Laktory rejects it at load; local runs are not affected
	CodeExtension         = "LK018" // a workbench extension key Laktory rejects (flow, foreach)
	CodeNotRead           = "LK019" // a YAML file that looks like a pipeline but is not read
	CodeParameter         = "LK020" // pipeline parameters Laktory rejects, or a required one without a value
	CodeParamAsText       = "LK021" // ${params.x} in a pipeline without parameters: left as text
	CodeBadName           = "LK050" // a catalog, schema or table name that is not an identifier
	CodeExpansion         = "LK051" // a value that expands beyond MaxExpandedSize (a file beyond MaxExpandedTotal)
	CodeStackResourceName = "LK126" // a stack resource whose resource_options.name is not its key
	CodeStackSettingsRef  = "LK127" // a ${resources...} reference in the stack's settings
)
