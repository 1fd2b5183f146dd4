#!/usr/bin/env python3
"""Every schema in schemas/ is a valid JSON Schema, and every config and manifest the examples
ship validates against its schema: validate_examples.py SOURCE_ROOT"""
import json
import pathlib
import sys

import jsonschema

root = pathlib.Path(sys.argv[1])
schemas = {p.name: json.loads(p.read_text()) for p in (root / "schemas").glob("*.schema.json")}
for name, schema in schemas.items():
    jsonschema.Draft202012Validator.check_schema(schema)

checked = 0
for path in sorted((root / "examples").rglob("*.json")):
    if "build" in path.parts or "subprojects" in path.parts:
        continue
    if path.name == "threadlink.json":
        schema = schemas["threadlink.schema.json"]
    elif path.name.endswith(".manifest.json"):
        schema = schemas["manifest.schema.json"]
    else:
        continue
    jsonschema.validate(json.loads(path.read_text()), schema, cls=jsonschema.Draft202012Validator)
    checked += 1

# The schema must refuse what the generator refuses.
bad = [{"domains": [{"name": "A", "output": "../x.h"}]}, {"unknown": 1},
       {"domains": [{"name": "9A", "output": "a.h"}]}, {"domains": [{"name": "A", "output": "a.h", "kind": "hashed"}]}]
for doc in bad:
    try:
        jsonschema.validate(doc, schemas["threadlink.schema.json"], cls=jsonschema.Draft202012Validator)
    except jsonschema.ValidationError:
        continue
    sys.exit(f"schema accepted an invalid config: {doc}")
print(f"{len(schemas)} schemas valid, {checked} example files valid, {len(bad)} invalid configs refused")
if checked == 0:
    sys.exit("no example file was checked")
