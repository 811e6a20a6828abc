package workspace

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

var (
	stackKeys    = keysOf("Stack")
	envKeys      = keysOf("EnvironmentSettings")
	resourceKeys = keysOf("StackResources")
)

// loadStack reads a Laktory stack: resources.pipelines, with the selected
// environment's variables and resources merged over the defaults.
func (l *loader) loadStack(res *fileResult, doc *yaml.Node) {
	// Environment names come from the raw YAML, before includes, as
	// Laktory's CLI reads them.
	var envNode *yaml.Node
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value == "environments" && doc.Content[i+1].Kind == yaml.MappingNode {
			envNode = doc.Content[i+1]
			for j := 0; j+1 < len(envNode.Content); j += 2 {
				res.envs = append(res.envs, envNode.Content[j].Value)
			}
		}
	}
	env := l.opts.Env
	var envDiag *Diagnostic
	switch {
	case env == "" && len(res.envs) > 0:
		env = res.envs[0]
	case env != "" && !slices.Contains(res.envs, env):
		at := Pos{File: res.path, Line: 1, Col: 1}
		if envNode != nil {
			at = Pos{File: res.path, Line: envNode.Line, Col: envNode.Column}
		}
		hint := "the stack declares no environments: drop --env"
		if len(res.envs) > 0 {
			hint = "environments: " + strings.Join(res.envs, ", ")
		}
		d := NewDiagnostic(at, SeverityError, CodeStackEnv, fmt.Sprintf("Environment '%s' is not declared in the stack.", env), hint)
		envDiag = &d
		env = ""
	}
	res.env = env
	if envDiag != nil {
		res.diags = append(res.diags, *envDiag)
	}

	vars := scalarVars(doc.Content, "variables")
	if envNode != nil && env != "" {
		for j := 0; j+1 < len(envNode.Content); j += 2 {
			if envNode.Content[j].Value == env && envNode.Content[j+1].Kind == yaml.MappingNode {
				for k, v := range scalarVars(envNode.Content[j+1].Content, "variables") {
					vars[k] = v
				}
			}
		}
	}
	if _, ok := vars["env"]; !ok && env != "" {
		vars["env"] = env
	}
	e := l.expander(vars)
	root := e.expandFile(res.path, Pos{File: res.path, Line: 1, Col: 1})
	res.diags = append(res.diags, e.diags...)
	res.deps = sortedKeys(e.deps)
	if root == nil {
		return
	}
	base := &scope{vars: map[string]*vnode{}}
	if env != "" {
		base.vars["env"] = &vnode{kind: vScalar, tag: "!!str", value: env, file: res.path, line: 1, col: 1}
	}
	d := newDecoder(l.layout, l.opts, base)
	defer func() { res.diags = append(res.diags, d.diags...) }()
	o := d.object(root, "stack")
	if o == nil {
		return
	}
	o.check(stackKeys)
	o.required("name")
	d.stackSettings(o.n.get("settings"))
	d.resourceNames(o.n.get("resources"))
	d.scope = d.scope.push(o.n.get("variables"))

	var resourceVars []*vnode
	pipelines := map[string]*vnode{}
	var order []string
	collect := func(resources *vnode, what string) {
		ro := d.object(resources, what)
		if ro == nil {
			return
		}
		ro.check(resourceKeys)
		// Variables of the resources apply to the pipelines below them
		// (the environment's after the default ones: inner wins).
		resourceVars = append(resourceVars, ro.n.get("variables"))
		pl := ro.raw("pipelines")
		if pl.isNull() {
			return
		}
		po := d.object(pl, what+".pipelines")
		if po == nil {
			return
		}
		for i, k := range po.n.keys {
			if _, seen := pipelines[k.value]; !seen {
				order = append(order, k.value)
			}
			pipelines[k.value] = mergeInto(pipelines[k.value], po.n.vals[i])
		}
	}
	if r := o.raw("resources"); !r.isNull() {
		collect(r, "resources")
	}
	if envs := o.raw("environments"); !envs.isNull() {
		if eo := d.object(envs, "environments"); eo != nil {
			for i, k := range eo.n.keys {
				en := eo.n.vals[i]
				if en.isNull() {
					continue
				}
				ev := d.object(en, fmt.Sprintf("environment '%s'", k.value))
				if ev == nil {
					continue
				}
				ev.check(envKeys)
				if k.value != env {
					continue
				}
				d.scope = d.scope.push(ev.n.get("variables"))
				if r := ev.raw("resources"); !r.isNull() {
					collect(r, fmt.Sprintf("environment '%s' resources", k.value))
				}
			}
		}
	}
	for _, v := range resourceVars {
		d.scope = d.scope.push(v)
	}
	for _, key := range order {
		if p := d.pipeline(pipelines[key], res.path, key); p != nil {
			res.pipelines = append(res.pipelines, p)
		}
	}
}

// stackSettings: LaktorySettings.apply_settings refuses a setting that
// holds a ${resources...} reference, which only Terraform resolves (LK127).
func (d *decoder) stackSettings(n *vnode) {
	if n = d.resolve(n); n == nil || n.kind != vMap {
		return
	}
	for i, k := range n.keys {
		v := d.resolve(n.vals[i])
		if v == nil || v.kind != vScalar || !strings.Contains(v.value, "${resources.") {
			continue
		}
		d.errorf(v.pos(), CodeStackSettingsRef, "write the value itself: settings are applied when the stack loads, before Terraform runs",
			"settings.%s = '%s' contains a '${resources...}' reference, which cannot be resolved inside the 'settings:' block - it is resolved by Terraform itself at plan/apply time.", k.value, v.value)
	}
}

// resourceNames: StackResources.update_resource_names refuses a resource
// whose resource_options.name is not its key (LK126). Laktory checks the
// stack's own resources when it loads; an environment's override of the
// name is not checked (get_env takes it as is).
func (d *decoder) resourceNames(n *vnode) {
	if n = d.resolve(n); n == nil || n.kind != vMap {
		return
	}
	for i, typ := range n.keys {
		rs := d.resolve(n.vals[i])
		if typ.value == "variables" || rs == nil || rs.kind != vMap {
			continue
		}
		for j, key := range rs.keys {
			r := d.resolve(rs.vals[j])
			if r == nil || r.kind != vMap {
				continue
			}
			opts := d.resolve(r.get("resource_options"))
			if opts == nil || opts.kind != vMap {
				continue
			}
			name := d.resolve(opts.get("name"))
			if name == nil || name.kind != vScalar || name.isNull() || name.value == "" || name.value == key.value {
				continue
			}
			d.errorf(name.pos(), CodeStackResourceName, fmt.Sprintf("drop `resource_options.name` (the key names the resource), or rename the key to %s", name.value),
				"Provided resource name %s does not match provided key %s", name.value, key.value)
		}
	}
}
