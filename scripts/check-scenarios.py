#!/usr/bin/env python3
"""Validates scenarios against the scenario JSON Schema with Debian's python3-jsonschema.

    /usr/bin/python3 scripts/check-scenarios.py [SCHEMA]

Every scenario.json under examples/ and scripts/ must validate against the
schema (default build/scenario.schema.json, which `go run ./build schema`
writes from the Go types the models read); then a few known-bad edits of the
examples must not: a misspelt key, another model's block, a string for a
number, an array of the wrong length. Exits 1 naming what failed.
"""

import copy
import glob
import json
import os
import sys

import jsonschema

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def main():
    schema_path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "scenario.schema.json")
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failed = []
    files = sorted(glob.glob(os.path.join(ROOT, "examples", "**", "scenario.json"), recursive=True)
                   + glob.glob(os.path.join(ROOT, "scripts", "**", "scenario.json"), recursive=True))
    scenarios = {}
    for path in files:
        with open(path) as f:
            sc = json.load(f)
        scenarios[os.path.relpath(path, ROOT)] = sc
        errors = sorted(validator.iter_errors(sc), key=lambda e: list(e.path))
        for e in errors:
            failed.append("%s: %s at %s" % (os.path.relpath(path, ROOT), e.message, "/".join(map(str, e.path))))
    print("schema: %d scenarios checked" % len(files))

    def bad(name, path, edit):
        sc = copy.deepcopy(scenarios[path])
        edit(sc)
        if validator.is_valid(sc):
            failed.append("%s with %s: accepted by the schema" % (path, name))

    bad("a misspelt key", "examples/rigid-cable/scenario.json", lambda s: s["config"]["cable"].update({"lenght0": 10}))
    bad("another model's block", "examples/rigid-cable/scenario.json", lambda s: s["config"].update({"spline": {"controls": 12}}))
    bad("a string for a number", "examples/mass-spring/scenario.json", lambda s: s["config"].update({"gravity": "9.81"}))
    bad("a position of two numbers", "examples/spline/scenario.json", lambda s: s["config"]["suspension"].update({"position": [0, 14]}))
    bad("an unknown model", "examples/massless/scenario.json", lambda s: s.update({"model": "masless-cable"}))
    bad("a rope without E", "examples/massless/scenario.json", lambda s: s["config"]["cables"][0]["rope"].pop("E"))
    for f in failed:
        print("schema:", f, file=sys.stderr)
    if failed:
        sys.exit(1)
    print("schema: every scenario valid, 6 bad edits refused")


if __name__ == "__main__":
    main()
