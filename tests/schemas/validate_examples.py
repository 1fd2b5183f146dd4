#!/usr/bin/env python3
"""Every schema in schemas/ is a valid JSON Schema, every config and manifest the examples ship
validates against its schema, and so does `threadlink-gen diff --format json`:
validate_examples.py SOURCE_ROOT THREADLINK_GEN"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import jsonschema

root = pathlib.Path(sys.argv[1])
schemas = {p.name: json.loads(p.read_text()) for p in (root / "schemas").glob("*.schema.json")}
for name, schema in schemas.items():
    jsonschema.Draft202012Validator.check_schema(schema)
# Schemas refer to each other by file name ("content.schema.json#/$defs/content").
resolver_store = {name: schema for name, schema in schemas.items()}


def validate(doc, name):
    resolver = jsonschema.RefResolver(base_uri=name, referrer=schemas[name], store=resolver_store)
    jsonschema.Draft202012Validator(schemas[name], resolver=resolver).validate(doc)

checked = 0
for path in sorted((root / "examples").rglob("*.json")):
    if "build" in path.parts or "subprojects" in path.parts:
        continue
    kinds = {"threadlink.json": "threadlink.schema.json", ".manifest.json": "manifest.schema.json",
             ".vault.json": "vault.schema.json", ".vaultdata.json": "vaultdata.schema.json",
             "vault-manifest.json": "vault-manifest.schema.json", ".actions.json": "actionmap.schema.json"}
    schema = next((s for suffix, s in kinds.items() if path.name.endswith(suffix)), None)
    if schema is None:
        continue
    validate(json.loads(path.read_text()), schema)
    checked += 1

# The schema must refuse what the generator refuses.
bad = [{"domains": [{"name": "A", "output": "../x.h"}]}, {"unknown": 1},
       {"domains": [{"name": "9A", "output": "a.h"}]}, {"domains": [{"name": "A", "output": "a.h", "kind": "hashed"}]}]
for doc in bad:
    try:
        validate(doc, "threadlink.schema.json")
    except jsonschema.ValidationError:
        continue
    sys.exit(f"schema accepted an invalid config: {doc}")
# The action maps (actionmap.schema.json) of the input stage's golden cases: the generator's and
# the schema's verdicts agree.
golden = root / "tests" / "gen" / "golden"
for case in ("input-map", "input-map-reordered"):
    validate(json.loads((golden / case / "threadlink.json").read_text()), "threadlink.schema.json")
    validate(json.loads((golden / case / "input" / "game.actions.json").read_text()), "actionmap.schema.json")
    checked += 2
try:
    validate(json.loads((golden / "input-map-refused" / "input" / "game.actions.json").read_text()), "actionmap.schema.json")
    sys.exit("the action map schema accepted input-map-refused's map")
except jsonschema.ValidationError:
    pass

# diff --format json: a change of every compatible kind and a breaking one.
with tempfile.TemporaryDirectory() as tmp:
    old = pathlib.Path(tmp) / "old"
    shutil.copytree(root / "examples" / "basic" / "generated", old)
    new = pathlib.Path(tmp) / "new"
    shutil.copytree(old, new)
    m = json.loads((new / "Vault.Fields.manifest.json").read_text())
    m["entries"][0]["tombstone"] = True
    m["entries"][1]["name"] = "Renamed"
    (new / "Vault.Fields.manifest.json").write_text(json.dumps(m))
    (new / "Game.Factions.manifest.json").unlink()
    run = subprocess.run([sys.argv[2], "diff", str(old), str(new), "--format", "json"], capture_output=True, text=True)
    if run.returncode != 1:
        sys.exit(f"diff exited {run.returncode}: {run.stderr}")
    report = json.loads(run.stdout)
    jsonschema.validate(report, schemas["diff.schema.json"], cls=jsonschema.Draft202012Validator)
    kinds = sorted(c["change"] for c in report["changes"])
    if kinds != ["domain_removed", "renamed_member", "tombstoned"]:
        sys.exit(f"unexpected changes {kinds}")

# Vault schema and data changes of every class (a golden case's two commits; diff only reads).
vault_case = root / "tests" / "gen" / "golden" / "diff-vaults-text"
run = subprocess.run([sys.argv[2], "diff", "old", "new", "--format", "json"], cwd=vault_case, capture_output=True, text=True)
if run.returncode != 1:
    sys.exit(f"diff of the vault case exited {run.returncode}: {run.stderr}")
report = json.loads(run.stdout)
jsonschema.validate(report, schemas["diff.schema.json"], cls=jsonschema.Draft202012Validator)
vault_classes = {c["change"] for c in report["changes"] if c["domain"].startswith(("Vaults.", "VaultData."))}
if len(vault_classes) != 17:
    sys.exit(f"the vault case shows {len(vault_classes)} vault classes, not 17: {sorted(vault_classes)}")
for path in (vault_case / "new").rglob("vault-manifest.json"):
    validate(json.loads(path.read_text()), "vault-manifest.schema.json")

# Content profiles (content.schema.json) and the index a packed build writes (archives.schema.json).
content_schema = schemas["content.schema.json"]
good_content = [{"profile": "Main", "source_root": "assets", "output": "out/Main",
                 "categories": [{"name": "Icons", "folder": "Icons"}, {"name": "Misc", "folder": "Misc"}],
                 "archive": "packed", "max_archive_mb": 20, "compression": "zstd", "partitioner": "trie",
                 "names": "stem", "post_build": ["true"]}, "profiles/extra.json"]
jsonschema.validate(good_content, content_schema, cls=jsonschema.Draft202012Validator)
bad_content = [[{"profile": "Ma/in", "source_root": "a"}], [{"profile": "M", "source_root": "a/"}],
               [{"profile": "M", "source_root": "a", "max_archive_mb": 0}], [{"profile": "M", "source_root": "a", "colour": 1}],
               [{"profile": "M", "source_root": "a", "compression": "lzma"}], [{"profile": "M"}],
               [{"profile": "M", "source_root": "../a"}], [{"profile": "M", "source_root": "a", "categories": [{"name": "9x", "folder": ""}]}]]
for doc in bad_content:
    try:
        jsonschema.validate(doc, content_schema, cls=jsonschema.Draft202012Validator)
    except jsonschema.ValidationError:
        continue
    sys.exit(f"content schema accepted an invalid profile: {doc}")
with tempfile.TemporaryDirectory() as tmp:
    proj = pathlib.Path(tmp)
    (proj / "assets" / "Icons").mkdir(parents=True)
    (proj / "assets" / "Icons" / "sword.png").write_bytes(b"sword" * 100)
    (proj / "assets" / "Misc").mkdir(parents=True)
    (proj / "assets" / "Misc" / "caf\u00e9 \"q\".txt").write_text("cafe")
    (proj / "threadlink.json").write_text(json.dumps({"content": good_content[:1]}).replace('"post_build": ["true"]', '"post_build": "true"'))
    jsonschema.validate(json.loads((proj / "threadlink.json").read_text())["content"], content_schema, cls=jsonschema.Draft202012Validator)
    env = dict(os.environ, XDG_CACHE_HOME=str(proj / ".cache"))  # pack's record of input hashes: not ~/.cache
    run = subprocess.run([sys.argv[2], "pack", "-C", str(proj), "--quiet", "--no-progress"], capture_output=True, text=True, env=env)
    if run.returncode != 0:
        sys.exit(f"pack exited {run.returncode}: {run.stderr}")
    index = json.loads((proj / "out" / "Main" / "archives.json").read_text())
    jsonschema.validate(index, schemas["archives.schema.json"], cls=jsonschema.Draft202012Validator)
    checked += 1

print(f"{len(schemas)} schemas valid, {checked} example files valid, {len(bad)} invalid configs refused")
if checked == 0:
    sys.exit("no example file was checked")
