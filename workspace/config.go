package workspace

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// ConfigFileName is the workbench config file at the root of a workspace.
// It configures the workbench, not a pipeline: the loader never reads it
// as one.
const ConfigFileName = "laktory-workbench.yaml"

// Config is the workbench config file (laktory-workbench.yaml): what the
// workbench needs to know about the workspace that Laktory's YAML does not
// say. Keys are strict (an unknown key is an error at its line).
//
// Extension point: to add a key, add a field here and an entry to
// configKeys that decodes it (with the position of its value in Fields).
type Config struct {
	// Located holds the position of the file and of each key's value.
	Located
	// File is the config file (absolute).
	File string
	// Lake is the lake root (`lake:`), absolute; "" when unset. --lake and
	// LAKTORY_LAKE win over it.
	Lake string
	// Roots are the extra folders (`roots:`), absolute, where the product
	// may create, replace and delete paths (file sinks, Delta paths,
	// checkpoints) besides the workspace and the lake.
	Roots []string
	// Strict (`strict: true`) makes what Laktory rejects an error in every
	// validation and run of the workspace, as --strict does.
	Strict bool
	// Engine (`engine:`) is the engine runs use when no --engine says
	// otherwise: EngineLocal or EngineSpark ("" when unset: local).
	Engine string
	// SparkRemote (`spark: {remote: sc://HOST:PORT}`) is the Spark Connect
	// server of the Spark engine; --remote and LAKTORY_SPARK_REMOTE win
	// over it. Its position is Fields["spark.remote"].
	SparkRemote string
	// Paths (`paths:`) map the Databricks and object-store prefixes the
	// pipelines use to local folders (PathMap).
	Paths []PathMap
}

// Names of the engines the config's `engine` takes (runner/engine names
// them the same).
const (
	EngineLocal = "local"
	EngineSpark = "spark"
)

// CheckSparkRemote checks a Spark Connect address: sc://HOST:PORT, maybe
// with parameters (sc://host:15002/;user_id=me).
func CheckSparkRemote(remote string) error {
	u, err := url.Parse(remote)
	if err != nil || u.Scheme != "sc" || u.Host == "" || u.Port() == "" {
		return fmt.Errorf("%q is not a Spark Connect address: write it sc://HOST:PORT (the server's default port is 15002)", remote)
	}
	return nil
}

// configKey decodes one key of the config file; v is its value.
type configKey func(c *Config, v *yaml.Node, bad func(n *yaml.Node, code, msg, hint string))

// configKeys are the keys of the config file.
var configKeys = map[string]configKey{
	"lake": func(c *Config, v *yaml.Node, bad func(*yaml.Node, string, string, string)) {
		if v.Kind == yaml.ScalarNode && IsRemoteLake(v.Value) {
			if s, err := LakeLocation(v.Value); err != nil {
				bad(v, CodeBadEnum, "`lake`: "+err.Error(), "write lake: s3://BUCKET/PREFIX; the endpoint, region and credentials come from the AWS configuration (AWS_* variables, AWS_PROFILE), never from this file")
			} else {
				c.Lake = s
			}
			return
		}
		if s, ok := configPath(c, v, "lake", bad); ok {
			c.Lake = s
		}
	},
	"strict": func(c *Config, v *yaml.Node, bad func(*yaml.Node, string, string, string)) {
		if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!bool" {
			bad(v, CodeWrongType, "`strict` must be true or false", "write strict: true")
			return
		}
		c.Strict = v.Value == "true" || v.Value == "True" || v.Value == "TRUE"
	},
	"engine": func(c *Config, v *yaml.Node, bad func(*yaml.Node, string, string, string)) {
		engines := []string{EngineLocal, EngineSpark}
		if v.Kind != yaml.ScalarNode || !slices.Contains(engines, v.Value) {
			msg := fmt.Sprintf("`engine` must be %s or %s", EngineLocal, EngineSpark)
			if v.Kind == yaml.ScalarNode {
				msg += fmt.Sprintf(" (got %q)", v.Value)
				if s := suggest(v.Value, engines); s != "" {
					msg += fmt.Sprintf("; did you mean `%s`?", s)
				}
			}
			bad(v, CodeBadEnum, msg, "write engine: local (DuckDB, the default) or engine: spark (with spark: {remote: sc://HOST:PORT})")
			return
		}
		c.Engine = v.Value
	},
	"spark": func(c *Config, v *yaml.Node, bad func(*yaml.Node, string, string, string)) {
		const hint = "write spark: {remote: sc://HOST:PORT}"
		if v.Kind != yaml.MappingNode {
			bad(v, CodeWrongType, "`spark` must be a mapping with the Spark Connect server's `remote`", hint)
			return
		}
		for i := 0; i+1 < len(v.Content); i += 2 {
			k, val := v.Content[i], v.Content[i+1]
			if k.Value != "remote" {
				bad(k, CodeUnknownKey, fmt.Sprintf("unknown key `%s` in `spark` of the workbench config", k.Value), "allowed keys: remote")
				continue
			}
			if _, dup := c.Fields["spark.remote"]; dup {
				bad(k, CodeDuplicateKey, "`remote` is declared twice in `spark`", "keep one")
				continue
			}
			c.Fields["spark.remote"] = Pos{File: c.File, Line: val.Line, Col: val.Column}
			if val.Kind != yaml.ScalarNode || val.Tag == "!!null" {
				bad(val, CodeWrongType, "`spark.remote` must be a Spark Connect address (a string)", hint)
				continue
			}
			if err := CheckSparkRemote(val.Value); err != nil {
				bad(val, CodeBadEnum, "`spark.remote`: "+err.Error(), hint)
				continue
			}
			c.SparkRemote = val.Value
		}
	},
	"paths": decodePaths,
	"roots": func(c *Config, v *yaml.Node, bad func(*yaml.Node, string, string, string)) {
		if v.Kind != yaml.SequenceNode {
			bad(v, CodeWrongType, "`roots` must be a list of folders", "write roots: [../shared-data, /data/out]")
			return
		}
		for _, item := range v.Content {
			if s, ok := configPath(c, item, "roots", bad); ok {
				c.Roots = append(c.Roots, s)
			}
		}
	},
}

// configPath reads a folder of the config: a non-empty string, relative to
// the config file's folder. The filesystem root, the home folder and a
// folder holding it are refused: a root allows deleting what is inside it.
func configPath(c *Config, v *yaml.Node, key string, bad func(*yaml.Node, string, string, string)) (string, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" || strings.TrimSpace(v.Value) == "" {
		bad(v, CodeWrongType, fmt.Sprintf("`%s` must name a folder (a non-empty string)", key), "write a path, absolute or relative to "+ConfigFileName)
		return "", false
	}
	p := v.Value
	if err := LocalFolder(p); err != nil {
		bad(v, CodeBadEnum, fmt.Sprintf("`%s`: %v", key, err), "name a local folder, absolute or relative to "+ConfigFileName)
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(c.File), p)
	}
	p = filepath.Clean(p)
	home, _ := os.UserHomeDir()
	switch {
	case filepath.Dir(p) == p:
		bad(v, CodeBadEnum, fmt.Sprintf("`%s` may not be the filesystem root: the workbench may delete what a root holds", key), "name the folder the pipelines write to")
		return "", false
	case home != "" && (p == filepath.Clean(home) || strings.HasPrefix(filepath.Clean(home)+string(filepath.Separator), p+string(filepath.Separator))):
		bad(v, CodeBadEnum, fmt.Sprintf("`%s` may not be the home folder or hold it: the workbench may delete what a root holds", key), "name the folder the pipelines write to")
		return "", false
	}
	return p, true
}

// ReadConfig reads the config file of the workspace in dir (absolute). A
// missing file gives (nil, nil); a broken one gives the config decoded so
// far and its problems at their lines.
func ReadConfig(dir string) (*Config, []Diagnostic) {
	path := filepath.Join(dir, ConfigFileName)
	if _, err := os.Lstat(path); os.IsNotExist(err) {
		return nil, nil
	}
	c := &Config{File: path, Located: Located{Pos: Pos{File: path, Line: 1, Col: 1}, Fields: map[string]Pos{}}}
	var diags []Diagnostic
	bad := func(n *yaml.Node, code, msg, hint string) {
		diags = append(diags, NewDiagnostic(Pos{File: path, Line: n.Line, Col: n.Column}, SeverityError, code, msg, hint))
	}
	raw := parseRaw(path)
	switch {
	case raw.err != nil:
		return c, []Diagnostic{NewDiagnostic(c.Pos, SeverityError, CodeReadFile,
			fmt.Sprintf("cannot read the workbench config: %v", unwrapPathErr(raw.err)), "check the file's permissions")}
	case raw.syntax != nil:
		return c, []Diagnostic{*raw.syntax}
	case raw.doc == nil:
		return c, nil
	case raw.doc.Kind != yaml.MappingNode:
		bad(raw.doc, CodeWrongType, "the workbench config must be a mapping of `key: value` lines", "allowed keys: "+strings.Join(configKeyNames(), ", "))
		return c, diags
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(raw.doc.Content); i += 2 {
		k, v := raw.doc.Content[i], raw.doc.Content[i+1]
		dec, ok := configKeys[k.Value]
		switch {
		case !ok:
			msg := fmt.Sprintf("unknown key `%s` in the workbench config", k.Value)
			if s := suggest(k.Value, configKeyNames()); s != "" {
				msg += fmt.Sprintf("; did you mean `%s`?", s)
			}
			bad(k, CodeUnknownKey, msg, "allowed keys: "+strings.Join(configKeyNames(), ", "))
			continue
		case seen[k.Value]:
			bad(k, CodeDuplicateKey, fmt.Sprintf("`%s` is declared twice in the workbench config", k.Value), "keep one")
			continue
		}
		seen[k.Value] = true
		c.Fields[k.Value] = Pos{File: path, Line: v.Line, Col: v.Column}
		dec(c, v, bad)
	}
	return c, diags
}

func configKeyNames() []string {
	names := make([]string, 0, len(configKeys))
	for k := range configKeys {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// OpenLayout is NewLayout with the workspace's config file applied (its
// lake when neither lakeOverride nor env sets one, and its roots), for
// commands that locate tables without loading the workspace. The config's
// problems are returned as diagnostics.
func OpenLayout(dir, lakeOverride, env string) (Layout, []Diagnostic, error) {
	l, err := NewLayout(dir, lakeOverride, env)
	if err != nil {
		return Layout{}, nil, err
	}
	c, diags := ReadConfig(l.Dir)
	return l.withConfig(c, lakeOverride == "" && env == ""), diags, nil
}

// withConfig applies a config (nil: none) to a layout; its lake only when
// the lake was not overridden.
func (l Layout) withConfig(c *Config, lakeFromConfig bool) Layout {
	if c == nil {
		return l
	}
	if lakeFromConfig && c.Lake != "" {
		l.Lake = c.Lake
	}
	l.Roots = slices.Clone(c.Roots)
	l.Paths = slices.Clone(c.Paths)
	return l
}
