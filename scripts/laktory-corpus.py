#!/usr/bin/env python3
"""Build a corpus of Laktory YAML from Laktory's own repository (dev only).

    scripts/laktory-corpus.py REPO OUT [REV...]

REPO is a git clone of Laktory (github.com/okube-ai/laktory, MIT), or of a
repository of Laktory examples; REV are the revisions to read (default
HEAD). OUT gets one folder per workspace, as TestLaktoryParity reads them
(LAKTORY_PARITY_CORPUS=OUT):

- every folder of YAML files of the revision (quickstart stacks, test data,
  examples) becomes a workspace with its folder tree, so `!use` and
  `!extend` find their files (the files they name that are no YAML, such
  as `expr: !use x.sql`, come along);
- every ```yaml block of the documentation (docs/**/*.md) holding a whole
  pipeline (`nodes:`) or stack (`resources:`) becomes a workspace of its own.

Contents already seen (any revision) are skipped. Then:

    LAKTORY_PARITY_CORPUS=OUT LAKTORY_PYTHON=... go test ./validate -run TestLaktoryParity -v

compares, file by file, Laktory 0.13.1's verdict with ours.
"""

import hashlib
import os
import re
import subprocess
import sys


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout


def main():
    repo, out = sys.argv[1], sys.argv[2]
    revs = sys.argv[3:] or ["HEAD"]
    name = os.path.basename(os.path.abspath(repo.rstrip("/").removesuffix("/repo")))
    seen = set()
    written = 0

    def write(ws, rel, text):
        nonlocal written
        path = os.path.join(out, ws, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(text)
        written += 1

    for rev in revs:
        files = git(repo, "ls-tree", "-r", "--name-only", rev).decode().split("\n")
        names = set(files)
        tag = re.sub(r"[^A-Za-z0-9.]+", "-", rev)
        # Folders of YAML files: one workspace each (a quickstart stack with
        # its subfolders), a subfolder the parent's files name ("sources/")
        # with its parent.
        yamls = [f for f in files if f.endswith((".yaml", ".yml")) and not f.startswith(".") and "/." not in f and f != "mkdocs.yml"]
        blobs = {f: git(repo, "show", f"{rev}:{f}") for f in yamls}
        dirs = {os.path.dirname(f) for f in yamls}

        def root(d):
            if not d:
                return d
            parts = d.split("/")
            if "quickstart-stacks" in parts:
                return "/".join(parts[: parts.index("quickstart-stacks") + 2])
            parent = os.path.dirname(d)
            named = os.path.basename(d).encode() + b"/"
            if parent in dirs and any(named in b for f, b in blobs.items() if os.path.dirname(f) == parent):
                return root(parent)
            return d

        groups = {}
        for f in yamls:
            groups.setdefault(root(os.path.dirname(f)), []).append(f)
        for key, fs in groups.items():
            blobs_ = {f: blobs[f] for f in fs}
            # Files the YAML includes that are no YAML (`expr: !use x.sql`).
            for f in fs:
                for ref in re.findall(rb"!(?:use|extend|update)\s+([^\s#]+)", blobs[f]):
                    g = os.path.normpath(os.path.join(os.path.dirname(f), ref.decode()))
                    if g in names and g not in blobs_ and g.startswith(key):
                        blobs_[g] = git(repo, "show", f"{rev}:{g}")
            digest = hashlib.sha1(b"".join(f.encode() + blobs_[f] for f in sorted(blobs_))).hexdigest()
            if digest in seen:
                continue
            seen.add(digest)
            ws = f"{name}-{tag}-{key.replace('/', '_') or 'root'}"
            for f, b in blobs_.items():
                write(ws, os.path.relpath(f, key or "."), b)
        # Whole pipelines and stacks in the documentation's YAML blocks.
        for f in files:
            if not (f.startswith("docs/") and f.endswith(".md")):
                continue
            text = git(repo, "show", f"{rev}:{f}").decode(errors="replace")
            for i, block in enumerate(re.findall(r"```yaml[^\n]*\n(.*?)```", text, re.S)):
                lines = block.split("\n")
                indent = min((len(l) - len(l.lstrip()) for l in lines if l.strip()), default=0)
                block = "\n".join(l[indent:] for l in lines)
                top = set(re.findall(r"^([a-z_]+):", block, re.M))
                if not ({"nodes", "resources"} & top):
                    continue
                digest = hashlib.sha1(block.encode()).hexdigest()
                if digest in seen:
                    continue
                seen.add(digest)
                base = f[len("docs/"):-len(".md")].replace("/", "_")
                write(f"{name}-{tag}-docs-{base}-{i}", f"{base}-{i}.yaml", block.encode())
    print(f"{written} files in {out}")


if __name__ == "__main__":
    main()
