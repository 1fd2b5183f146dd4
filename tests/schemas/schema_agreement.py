#!/usr/bin/env python3
"""The generator's config reader and schemas/threadlink.schema.json (with content.schema.json)
agree: from every constraint of the schema that applies to a complete project's threadlink.json
this derives a document that breaks just that constraint (a wrong type, a value outside an enum
or a range, a missing required key, an unknown key, a string a pattern refuses, an empty array),
checks that the schema refuses it, and that `threadlink-gen headers --list-outputs` refuses it
too, with an error located in threadlink.json (line and column) that names the key path. The
other way round, every such change the schema accepts the generator accepts as well, unless what
it refuses is a fact of the file system a schema cannot see (a folder that does not exist, or one
inside another); the project itself, which the schema accepts, the generator must accept.
    schema_agreement.py SOURCE_ROOT THREADLINK_GEN
"""
import copy
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import warnings

import jsonschema

warnings.simplefilter("ignore", DeprecationWarning) # RefResolver, which Debian 12's jsonschema needs

root = pathlib.Path(sys.argv[1])
gen = sys.argv[2]
schemas = {p.name: json.loads(p.read_text()) for p in (root / "schemas").glob("*.schema.json")}
CONFIG = "threadlink.schema.json"


def resolve(node, base):
    """A schema node with its $ref followed; returns (node, the schema file it is in)."""
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        file, _, pointer = ref.partition("#")
        base = file or base
        node = schemas[base]
        for part in filter(None, pointer.split("/")):
            node = node[part]
    return node, base


def validator(name):
    resolver = jsonschema.RefResolver(base_uri=name, referrer=schemas[name], store=dict(schemas))
    return jsonschema.Draft202012Validator(schemas[name], resolver=resolver)


def path_text(path):
    """["content", 0, "output"] -> "content[0].output", as the generator names keys."""
    out = ""
    for part in path:
        out += "[%d]" % part if isinstance(part, int) else (("." if out else "") + part)
    return out


WRONG_TYPE = {"string": 7, "integer": "seven", "number": "seven", "boolean": "yes", "array": {"a": 1}, "object": ["a"]}
# Strings that break the patterns this schema uses: paths that leave the project, names C cannot
# spell, file-name characters, a quote in an include.
BAD_STRINGS = ["/abs", "a\\b", "../up", "C:x", "9bad", "a b", "a/b", "a\"b", "bad-name", ".", "..", "./x", "a//b", "a/./b", "x/"]


def branches(node, base):
    """The schemas a value must satisfy at this node: allOf parts, $refs followed."""
    node, base = resolve(node, base)
    yield node, base
    for part in node.get("allOf", []):
        yield from branches(part, base)


def mutations(value, node, base, path):
    """(path, description, mutate(doc)) for every constraint of `node` that `value` meets."""
    for n, b in branches(node, base):
        yield from node_mutations(value, n, b, path)


def at(doc, path):
    for part in path:
        doc = doc[part]
    return doc


def setter(path, new):
    def mutate(doc):
        at(doc, path[:-1])[path[-1]] = new
    return mutate


def node_mutations(value, node, base, path):
    t = node.get("type")
    if t and path:
        yield path, "type %s" % t, setter(path, WRONG_TYPE[t])
    if "enum" in node and path and isinstance(value, str):
        yield path, "enum", setter(path, "tl-not-a-choice")
    if "minimum" in node and path:
        yield path, "minimum", setter(path, node["minimum"] - 1)
    if "maximum" in node and path:
        yield path, "maximum", setter(path, node["maximum"] + 1)
    if node.get("minLength", 0) >= 1 and path:
        yield path, "minLength", setter(path, "")
    if node.get("minItems", 0) >= 1 and path:
        yield path, "minItems", setter(path, [])
    if isinstance(value, str) and path and ("pattern" in node or "not" in node):
        for bad in BAD_STRINGS:
            yield path, "pattern %r" % bad, setter(path, bad)
    if isinstance(value, dict):
        for key in node.get("required", []):
            if key in value:
                yield path, "required %s" % key, (lambda k: lambda doc: at(doc, path).pop(k))(key)
        if node.get("additionalProperties") is False:
            yield path, "additionalProperties", lambda doc: at(doc, path).__setitem__("tl_unknown_key", 1)
        for key, sub in node.get("properties", {}).items():
            if key in value:
                yield from mutations(value[key], sub, base, path + [key])
    if isinstance(value, list) and "items" in node:
        for i, item in enumerate(value):
            yield from mutations(item, item_schema(node["items"], base, item), base, path + [i])


def item_schema(node, base, item):
    """For oneOf items (a profile object or a profile file's path), the branch the item takes."""
    node, base = resolve(node, base)
    for option in node.get("oneOf", []):
        option, ob = resolve(option, base)
        if (option.get("type") == "object") == isinstance(item, dict):
            return {"$ref": ob + "#" + pointer_of(option)} if ob != base else option
    return node


def pointer_of(target):
    for name, schema in schemas.items():
        for key, sub in schema.get("$defs", {}).items():
            if sub is target:
                return "/$defs/" + key
    raise KeyError("no $defs entry")


# An action map using every form of binding (actionmap.schema.json), for make_project.
ACTION_MAP = {
    "$schema": "../../../schemas/actionmap.schema.json", "description": "every form", "dead_zone": 0.25, "press_point": 0.5,
    "modes": [
        {"mode": "Gameplay", "description": "on foot", "actions": [
            {"action": "Fire", "kind": "button", "description": "shoot",
             "bindings": ["keyboard/Space", {"control": "gamepad/righttrigger", "threshold": 0.5, "description": "trigger"}]},
            {"action": "Move", "kind": "vector",
             "bindings": ["gamepad/leftxy", {"up": "keyboard/W", "down": "keyboard/S", "left": "keyboard/A", "right": "keyboard/D",
                                             "description": "WASD"}]},
            {"action": "Steer", "kind": "axis", "bindings": ["gamepad/rightx", {"negative": "keyboard/Q", "positive": "keyboard/E"}]}]},
        {"mode": "Menu", "actions": [{"action": "Back", "kind": "button", "bindings": ["keyboard/Escape", "gamepad/b"]}]}],
    "glyphs": {"catalog": "Content.Game", "description": "prompts", "MouseAndKeyboard": {"keyboard/Space": "Sprites/hero"},
               "Xbox": {"gamepad/b": "Sprites/hero"}, "PlayStation": {"gamepad/b": "Sprites/hero"},
               "Switch": {"gamepad/b": "Sprites/hero"}, "Gamepad": {"gamepad/b": "Sprites/hero"}}}


def make_project(tmp):
    """examples/basic, with a content profile, a vault output folder and a text section: every part
    of the config."""
    p = pathlib.Path(tmp) / "p"
    shutil.copytree(root / "examples" / "basic", p, ignore=shutil.ignore_patterns("build*", "subprojects"))
    (p / "assets" / "Sprites").mkdir(parents=True)
    (p / "assets" / "Sprites" / "hero.txt").write_text("hero\n")
    cfg = json.loads((p / "threadlink.json").read_text())
    cfg["$schema"] = "../../schemas/threadlink.schema.json"
    cfg["vaults"]["output"] = "vaults"
    cfg["content"] = [{"profile": "Game", "source_root": "assets", "output": "build/content/Game",
                       "categories": [{"name": "Sprites", "folder": "Sprites"}], "archive": "packed",
                       "max_archive_mb": 20, "compression": "lz4", "partitioner": "trie", "names": "stem",
                       "post_build": ["true"]}]
    cfg["domains"].append({"name": "Dextra.InputModes", "output": "input_modes.h",
                           "native": "threadlink:natives/Dextra.InputModes.Native.txt"})
    cfg["input"] = {"actions": "input/game.actions.json", "output": "input/map.h", "domain": "Dextra.Actions",
                    "domain_output": "input/actions.h", "modes": "Dextra.InputModes"}
    (p / "input").mkdir()
    (p / "input" / "game.actions.json").write_text(json.dumps(ACTION_MAP, indent=2) + "\n")
    (p / "text").mkdir()
    (p / "text" / "en.po").write_text('msgctxt "Title"\nmsgid "Title"\nmsgstr ""\n')
    cfg["text"] = {"source": "text/en.po", "translations": "text", "domain": "Text.Keys", "header": "text_keys.h",
                   "output": "text.h", "tables": "text", "prefix": "text", "missing": "warning"}
    return p, cfg


def run_generator(p, file, doc):
    (p / file).write_text(json.dumps(doc, indent=2) + "\n")
    return subprocess.run([gen, "headers", "--list-outputs", "-C", str(p)], capture_output=True, text=True)


def located_at_key(stderr, file, path):
    """An error at FILE:LINE:COL that names the key path, or (for a missing or an unknown key)
    its parent's path."""
    names = {path_text(path), path_text(path[:-1])} - {""}
    pattern = re.compile(r".*" + re.escape(pathlib.Path(file).name) + r":(\d+):(\d+): error: (.*)")
    for line in stderr.splitlines():
        m = pattern.match(line)
        if m and int(m.group(1)) > 0 and (not names or any(n in m.group(3) for n in names)):
            return True
    return False


# What the generator may refuse of a document the schema accepts: what the file system or the
# rest of the project says (a folder that does not exist, a field Vault.Fields does not declare).
PROJECT_FACTS = re.compile(r"does not exist|cannot read|is inside|contains the source root|No such file|"
                           r"is not declared in Vault.Fields|no vault schema is named|has no field|no domain is named|"
                           r"sets field .* again|is transient")


def check_format(p, file, schema, base, failures):
    """Every one-constraint change of `base` (the project's `file`, in `schema`'s format)."""
    checked = accepted = 0
    v = validator(schema)
    original = (p / file).read_text()
    if not v.is_valid(base):
        failures.append("%s: the schema refuses the base document: %s" % (file, next(v.iter_errors(base)).message))
        return 0, 0
    run = run_generator(p, file, base)
    if run.returncode != 0:
        failures.append("%s: the generator refuses the base document:\n    %s" % (file, run.stderr.strip()))
        return 0, 0
    seen = set()
    for path, what, mutate in mutations(base, schemas[schema], schema, []):
        doc = copy.deepcopy(base)
        mutate(doc)
        key = json.dumps(doc, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        run = run_generator(p, file, doc)
        where = "%s: %s: %s" % (file, path_text(path) or "(top level)", what)
        if v.is_valid(doc):
            accepted += 1
            if run.returncode != 0 and not PROJECT_FACTS.search(run.stderr):
                failures.append("%s: the schema accepts it, the generator refuses it:\n    %s"
                                % (where, run.stderr.strip().replace("\n", "\n    ")))
            continue
        checked += 1
        if run.returncode == 0:
            failures.append("%s: the schema refuses it, the generator accepts it" % where)
        elif not located_at_key(run.stderr, file, path):
            failures.append("%s: refused, but not at %s:line:col naming the key:\n    %s"
                            % (where, file, run.stderr.strip().replace("\n", "\n    ")))
    (p / file).write_text(original)
    return checked, accepted


def main():
    failures, checked, accepted = [], 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        p, base = make_project(tmp)
        (p / "threadlink.json").write_text(json.dumps(base, indent=2) + "\n")
        formats = [("threadlink.json", CONFIG, base)]
        for file, schema in (("vaults/Enemy.vault.json", "vault.schema.json"),
                             ("vaultdata/enemies.vaultdata.json", "vaultdata.schema.json"),
                             ("input/game.actions.json", "actionmap.schema.json")):
            formats.append((file, schema, json.loads((p / file).read_text())))
        for file, schema, doc in formats:
            c, a = check_format(p, file, schema, doc, failures)
            checked += c
            accepted += a
    for f in failures:
        print("FAIL: " + f)
    print("schema agreement: %d documents break one constraint of a schema and %d change a value the schema "
          "still accepts; %d disagreements" % (checked, accepted, len(failures)))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
