#!/usr/bin/env python3
"""Enumerate the rules of the installed Laktory: every pydantic validator and
every execution-time check (a `raise` of an exception).

    python scripts/laktory-validators.py [OUT]

OUT defaults to validate/testdata/laktory/rules.json. Run it with the Python
that has the Laktory the workbench follows (scripts/requirements-interop.txt:
laktory[polars]==0.13.1). Dev-only: the product never runs Python.

It reads Laktory's source files with `ast` (nothing is imported but to find
the package), and lists one entry per rule:

- kind "validator": a function decorated with `model_validator` or
  `field_validator`; one entry per `raise` in it (its condition and message),
  or one entry without a message for a validator that only coerces or fills
  in values;
- kind "check": a `raise` in any other function of the modules a pipeline's
  load or execution reaches (laktory/models, narwhals_ext, yaml, sqlparser,
  enums, datetime); the CLI, the dispatcher, the MCP server and the bundle
  tools (cli/, dispatcher/, mcp/, dab.py) are deployment tooling and are
  left out.

Each entry: id (file:Class.function#n, stable for a given Laktory version),
kind, file, line, model (the class, "" for a module function), function,
fields (a field validator's fields, a model validator's mode), condition
(the enclosing `if` tests, earlier guards that return negated, joined with
" and "), exception and message (the source of its first argument, f-strings
as written). A re-raise (`raise` alone, or of a caught name) is not a rule.

docs/laktory-rules.md maps every id to a workbench diagnostic code or says
why it does not apply locally; TestLaktoryRulesTable (package validate)
fails when that table and this file disagree, so an upgrade of Laktory shows
which rules appeared, changed or went away: rerun this script and diff.
"""

import ast
import importlib.util
import json
import os
import sys

SCOPE = ["models", "narwhals_ext", "yaml", "sqlparser.py", "enums.py", "datetime.py"]
VALIDATORS = {"model_validator", "field_validator"}


def package_dir():
    spec = importlib.util.find_spec("laktory")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("laktory is not installed in this Python")
    return list(spec.submodule_search_locations)[0]


def files(root):
    for entry in SCOPE:
        p = os.path.join(root, entry)
        if os.path.isfile(p):
            yield p
            continue
        for d, dirs, names in os.walk(p):
            dirs.sort()
            for n in sorted(names):
                if n.endswith(".py"):
                    yield os.path.join(d, n)


def decorator_info(fn):
    """('model_validator'|'field_validator', fields-or-mode) or None."""
    for dec in fn.decorator_list:
        call = dec if isinstance(dec, ast.Call) else None
        name = dec.func if call else dec
        if isinstance(name, ast.Attribute):
            name = name.attr
        elif isinstance(name, ast.Name):
            name = name.id
        else:
            continue
        if name not in VALIDATORS:
            continue
        args = []
        if call:
            args = [ast.literal_eval(a) if isinstance(a, ast.Constant) else ast.unparse(a) for a in call.args]
            for kw in call.keywords:
                args.append(f"{kw.arg}={ast.unparse(kw.value)}")
        return name, [str(a) for a in args]
    return None


def ends_flow(body):
    """True when a block always leaves the function or loop."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, (ast.Return, ast.Raise, ast.Continue, ast.Break)):
        return True
    if isinstance(last, ast.If):
        return ends_flow(last.body) and ends_flow(last.orelse)
    return False


def is_reraise(node, caught):
    if node.exc is None:
        return True
    return isinstance(node.exc, ast.Name) and node.exc.id in caught


def raises(body, conds, caught, out):
    """Collects (raise node, conditions) of a block, in source order."""
    guards = []
    for st in body:
        here = conds + guards
        if isinstance(st, ast.Raise):
            if not is_reraise(st, caught):
                out.append((st, here))
        elif isinstance(st, ast.If):
            test = ast.unparse(st.test)
            raises(st.body, here + [test], caught, out)
            raises(st.orelse, here + [f"not ({test})"], caught, out)
            if ends_flow(st.body) and not st.orelse:
                guards.append(f"not ({test})")
            elif ends_flow(st.orelse) and not ends_flow(st.body):
                guards.append(test)
        elif isinstance(st, (ast.For, ast.AsyncFor)):
            raises(st.body, here + [f"for {ast.unparse(st.target)} in {ast.unparse(st.iter)}"], caught, out)
            raises(st.orelse, here, caught, out)
        elif isinstance(st, ast.While):
            raises(st.body, here + [f"while {ast.unparse(st.test)}"], caught, out)
        elif isinstance(st, (ast.With, ast.AsyncWith)):
            raises(st.body, here, caught, out)
        elif isinstance(st, ast.Try):
            raises(st.body, here, caught, out)
            for h in st.handlers:
                names = set(caught)
                if h.name:
                    names.add(h.name)
                what = ast.unparse(h.type) if h.type else "any error"
                raises(h.body, here + [f"except {what}"], names, out)
            raises(st.orelse, here, caught, out)
            raises(st.finalbody, here, caught, out)
        elif isinstance(st, ast.Match):
            for case in st.cases:
                raises(case.body, here + [f"case {ast.unparse(case.pattern)}"], caught, out)
        # Nested functions and classes are visited on their own.


def joined(conds):
    """The conditions as one: a part holding `or` (or a conditional) keeps
    its own parentheses."""
    parts = []
    for c in conds:
        try:
            e = ast.parse(c, mode="eval").body
            bare = isinstance(e, (ast.BoolOp, ast.IfExp, ast.Lambda)) and not (isinstance(e, ast.BoolOp) and isinstance(e.op, ast.And))
        except SyntaxError:
            bare = False
        parts.append(f"({c})" if bare else c)
    return " and ".join(parts)


def exception_of(node):
    exc = node.exc
    call = exc if isinstance(exc, ast.Call) else None
    name = ast.unparse(call.func if call else exc)
    msg = ""
    if call and call.args:
        a = call.args[0]
        if isinstance(a, ast.Constant) and isinstance(a.value, str):
            msg = a.value
        else:
            msg = ast.unparse(a)
    return name, " ".join(msg.split())


def entries_of(path, rel):
    tree = ast.parse(open(path).read(), filename=path)
    out = []

    def visit(node, cls):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, child.name if not cls else f"{cls}.{child.name}")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                function(child, cls)
                visit(child, cls)

    def function(fn, cls):
        info = decorator_info(fn)
        found = []
        raises(fn.body, [], set(), found)
        base = f"{rel}:{cls + '.' if cls else ''}{fn.name}"
        kind = "validator" if info else "check"
        fields = info[1] if info else []
        if info and not found:
            out.append(dict(id=f"{base}#0", kind=kind, file=rel, line=fn.lineno, model=cls or "",
                            function=fn.name, fields=fields, condition="", exception="", message=""))
        for i, (r, conds) in enumerate(found, 1):
            exc, msg = exception_of(r)
            out.append(dict(id=f"{base}#{i}", kind=kind, file=rel, line=r.lineno, model=cls or "",
                            function=fn.name, fields=fields, condition=joined(conds),
                            exception=exc, message=msg))

    visit(tree, "")
    return out


def main():
    out_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "validate", "testdata", "laktory", "rules.json")
    root = package_dir()
    import laktory

    rules = []
    for p in files(root):
        rules.extend(entries_of(p, os.path.relpath(p, root).replace(os.sep, "/")))
    ids = [r["id"] for r in rules]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        sys.exit(f"duplicate ids: {sorted(dup)}")
    doc = {
        "laktory": getattr(laktory, "__version__", "?"),
        "validators": len({r["id"].rsplit("#", 1)[0] for r in rules if r["kind"] == "validator"}),
        "checks": sum(1 for r in rules if r["kind"] == "check"),
        "rules": rules,
    }
    with open(out_path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")
    print(f"laktory {doc['laktory']}: {doc['validators']} validators "
          f"({sum(1 for r in rules if r['kind'] == 'validator')} entries), "
          f"{doc['checks']} execution checks -> {out_path}")


if __name__ == "__main__":
    main()
