package workspace

import (
	"errors"
	"fmt"
)

// SparkRemoteEnv is the environment variable of the Spark engine's Spark
// Connect server.
const SparkRemoteEnv = "LAKTORY_SPARK_REMOTE"

// ErrNoSparkRemote: the Spark engine is chosen and nothing sets its Spark
// Connect server.
var ErrNoSparkRemote = errors.New("no Spark Connect server")

// EngineSettings are what chooses the engine besides the workbench config:
// the flags (--engine, --remote) and $LAKTORY_SPARK_REMOTE; "" when unset.
// Engine is EngineLocal or EngineSpark (the caller checks the flag).
type EngineSettings struct {
	Engine, Remote, EnvRemote string
}

// EngineChoice is the engine of a run and the Spark engine's server, each
// with where it is set ("--engine", "laktory-workbench.yaml:3", ...), for
// messages.
type EngineChoice struct {
	Engine, EngineFrom string // EngineFrom "the default" when local by default
	Remote, RemoteFrom string // Remote "" when nothing sets it
}

// ChooseEngine is the one rule of the engine's choice: --engine, else the
// config's engine, else local; the server --remote, else
// $LAKTORY_SPARK_REMOTE, else the config's spark.remote. cfg may be nil.
func ChooseEngine(s EngineSettings, cfg *Config) EngineChoice {
	c := EngineChoice{Engine: EngineLocal, EngineFrom: "the default"}
	switch {
	case s.Engine != "":
		c.Engine, c.EngineFrom = s.Engine, "--engine"
	case cfg != nil && cfg.Engine != "":
		c.Engine, c.EngineFrom = cfg.Engine, configLine(cfg, "engine")
	}
	switch {
	case s.Remote != "":
		c.Remote, c.RemoteFrom = s.Remote, "--remote"
	case s.EnvRemote != "":
		c.Remote, c.RemoteFrom = s.EnvRemote, "$"+SparkRemoteEnv
	case cfg != nil && cfg.SparkRemote != "":
		c.Remote, c.RemoteFrom = cfg.SparkRemote, configLine(cfg, "spark.remote")
	}
	return c
}

// SparkProblem says why the Spark engine cannot run on this choice's
// server (nil when it can): none is set (ErrNoSparkRemote), or it is not a
// Spark Connect address (named with where it is set).
func (c EngineChoice) SparkProblem() error {
	if c.Remote == "" {
		return fmt.Errorf("%w: set --remote sc://HOST:PORT, $%s or spark: {remote: sc://HOST:PORT} in %s", ErrNoSparkRemote, SparkRemoteEnv, ConfigFileName)
	}
	if err := CheckSparkRemote(c.Remote); err != nil {
		return fmt.Errorf("%s: %w", c.RemoteFrom, err)
	}
	return nil
}

// configLine names a key of the config by its file's name and line.
func configLine(cfg *Config, key string) string {
	return fmt.Sprintf("%s:%d", ConfigFileName, cfg.Fields[key].Line)
}
