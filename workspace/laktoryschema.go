package workspace

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
)

// laktorySchemaJSON is Laktory's model schema as scripts/laktory-schema.py
// dumps it from the Laktory release the decoder tracks: the keys each model
// accepts, its required keys, enum values and defaults.
//
//go:embed laktoryschema/schema.json
var laktorySchemaJSON []byte

type schemaModel struct {
	Keys          []string            `json:"keys"`
	Required      []string            `json:"required"`
	Enums         map[string][]string `json:"enums"`
	Defaults      map[string]any      `json:"defaults"`
	Discriminator string              `json:"discriminator"`
}

type laktorySchema struct {
	Version string                 `json:"laktory_version"`
	Models  map[string]schemaModel `json:"models"`
}

var lkSchema = func() laktorySchema {
	var s laktorySchema
	if err := json.Unmarshal(laktorySchemaJSON, &s); err != nil {
		panic(fmt.Sprintf("workspace: embedded Laktory schema: %v", err))
	}
	return s
}()

// LaktoryVersion is the Laktory release whose schema the decoder follows.
var LaktoryVersion = lkSchema.Version

func schemaOf(name string) schemaModel {
	m, ok := lkSchema.Models[name]
	if !ok {
		panic("workspace: Laktory schema has no model " + name)
	}
	return m
}

// keysOf returns the keys accepted by any of the named models, sorted.
func keysOf(models ...string) []string {
	var out []string
	for _, name := range models {
		for _, k := range schemaOf(name).Keys {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return out
}

// enumOf returns the values Laktory allows for field of any of the models.
func enumOf(field string, models ...string) []string {
	var out []string
	for _, name := range models {
		for _, v := range schemaOf(name).Enums[field] {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}
