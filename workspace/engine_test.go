package workspace_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace"
)

// TestChooseEngine: the engine is --engine, else the config's, else local;
// its server --remote, else $LAKTORY_SPARK_REMOTE, else the config's
// spark.remote; each with where it is set; SparkProblem says why the
// Spark engine cannot run there.
func TestChooseEngine(t *testing.T) {
	cfg := &workspace.Config{Engine: "spark", SparkRemote: "sc://config:15002", Located: workspace.Located{Fields: map[string]workspace.Pos{
		"engine": {Line: 2}, "spark.remote": {Line: 4}}}}
	localCfg := &workspace.Config{Engine: "local", Located: workspace.Located{Fields: map[string]workspace.Pos{"engine": {Line: 1}}}}
	tests := []struct {
		name    string
		s       workspace.EngineSettings
		cfg     *workspace.Config
		want    workspace.EngineChoice
		problem string // "" when the Spark engine can run
	}{
		{name: "nothing set", want: workspace.EngineChoice{Engine: "local", EngineFrom: "the default"},
			problem: "no Spark Connect server: set --remote sc://HOST:PORT, $LAKTORY_SPARK_REMOTE or spark: {remote: sc://HOST:PORT} in laktory-workbench.yaml"},
		{name: "the config", cfg: cfg, want: workspace.EngineChoice{Engine: "spark", EngineFrom: "laktory-workbench.yaml:2",
			Remote: "sc://config:15002", RemoteFrom: "laktory-workbench.yaml:4"}},
		{name: "the config's local engine", cfg: localCfg, want: workspace.EngineChoice{Engine: "local", EngineFrom: "laktory-workbench.yaml:1"},
			problem: "no Spark Connect server"},
		{name: "$LAKTORY_SPARK_REMOTE before the config", cfg: cfg, s: workspace.EngineSettings{EnvRemote: "sc://env:1"},
			want: workspace.EngineChoice{Engine: "spark", EngineFrom: "laktory-workbench.yaml:2", Remote: "sc://env:1", RemoteFrom: "$LAKTORY_SPARK_REMOTE"}},
		{name: "flags before both", cfg: cfg, s: workspace.EngineSettings{Engine: "local", Remote: "sc://flag:1", EnvRemote: "sc://env:1"},
			want: workspace.EngineChoice{Engine: "local", EngineFrom: "--engine", Remote: "sc://flag:1", RemoteFrom: "--remote"}},
		{name: "--engine without a config", s: workspace.EngineSettings{Engine: "spark", EnvRemote: "sc://env:1"},
			want: workspace.EngineChoice{Engine: "spark", EngineFrom: "--engine", Remote: "sc://env:1", RemoteFrom: "$LAKTORY_SPARK_REMOTE"}},
		{name: "a bad $LAKTORY_SPARK_REMOTE", s: workspace.EngineSettings{EnvRemote: "host:1"},
			want:    workspace.EngineChoice{Engine: "local", EngineFrom: "the default", Remote: "host:1", RemoteFrom: "$LAKTORY_SPARK_REMOTE"},
			problem: `$LAKTORY_SPARK_REMOTE: "host:1" is not a Spark Connect address`},
		{name: "a bad --remote", cfg: cfg, s: workspace.EngineSettings{Remote: "x:1"},
			want:    workspace.EngineChoice{Engine: "spark", EngineFrom: "laktory-workbench.yaml:2", Remote: "x:1", RemoteFrom: "--remote"},
			problem: `--remote: "x:1" is not a Spark Connect address`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := workspace.ChooseEngine(tt.s, tt.cfg)
			if c != tt.want {
				t.Errorf("ChooseEngine = %+v, want %+v", c, tt.want)
			}
			err := c.SparkProblem()
			switch {
			case tt.problem == "" && err != nil:
				t.Errorf("SparkProblem = %v, want none", err)
			case tt.problem != "" && (err == nil || !strings.Contains(err.Error(), tt.problem)):
				t.Errorf("SparkProblem = %v, want %q", err, tt.problem)
			case err != nil && c.Remote == "" && !errors.Is(err, workspace.ErrNoSparkRemote):
				t.Errorf("SparkProblem = %v, want ErrNoSparkRemote", err)
			}
		})
	}
}
