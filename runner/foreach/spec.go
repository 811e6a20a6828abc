package foreach

import (
	"fmt"

	"github.com/laktory/workbench/workspace"
)

// FromSpec returns the Sink of a `foreach:` sink definition: its command
// writer or its HTTP writer. The sink is named spec.Name, or defaultName
// (the node's name) when the YAML names none. The error wraps ErrSpec.
func FromSpec(spec *workspace.ForEach, defaultName string, opts Options) (*Sink, error) {
	if spec == nil {
		return nil, fmt.Errorf("%w: no `foreach` definition", ErrSpec)
	}
	name := spec.Name
	if name == "" {
		name = defaultName
	}
	var (
		f   Factory
		err error
	)
	switch {
	case len(spec.Command) > 0 && spec.HTTP != nil:
		return nil, fmt.Errorf("%w: ForEach sink %q sets both `command` and `http`: keep one writer", ErrSpec, name)
	case spec.HTTP != nil:
		f, err = HTTP(HTTPConfig{Method: spec.HTTP.Method, URL: spec.HTTP.URL, Headers: spec.HTTP.Headers, Timeout: spec.HTTP.Timeout}, opts)
	case len(spec.Command) > 0:
		f, err = Command(spec.Command, opts)
	default:
		return nil, fmt.Errorf(`%w: ForEach sink %q has no writer: set command (e.g. command: ["python3", "writer.py"]) or http (e.g. http: {url: "https://api.example.com/orders/{order_id}"})`, ErrSpec, name)
	}
	if err != nil {
		return nil, fmt.Errorf("ForEach sink %q: %w", name, err)
	}
	return New(name, f, opts), nil
}
