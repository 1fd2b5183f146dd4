#!/usr/bin/env python3
"""docs/ci.md's GitHub Actions recipe, run: its YAML parses, and the commands of its step
"Refuse unrecorded breaking changes", exactly as the page writes them, run in a git repository
made here (a bare origin with a base commit on main, a clone with a pull request commit on top):
a recorded rename passes, an unrecorded one (an entry removed and another added) fails and its
annotation names the rename line, and an approval in threadlink-allow.txt lets it pass.
    ci_recipe.py SOURCE_ROOT THREADLINK_GEN
"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import yaml

STEP = "Refuse unrecorded breaking changes"


def recipe_script(doc):
    """The run: script of the recipe's step, from the first ```yaml block of the page."""
    block = re.search(r"```yaml\n(.*?)```", doc, re.S)
    if not block:
        sys.exit("FAIL: docs/ci.md has no ```yaml block")
    workflow = yaml.safe_load(block.group(1))
    # YAML 1.1 reads the key `on` as True.
    if workflow.get("on", workflow.get(True)) != "pull_request":
        sys.exit("FAIL: the workflow does not run on pull_request")
    steps = [s for job in workflow["jobs"].values() for s in job["steps"]]
    named = [s for s in steps if s.get("name") == STEP]
    if len(named) != 1:
        sys.exit("FAIL: the workflow has no single step named %r" % STEP)
    return named[0]["run"]


def git(cwd, *args):
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def generate(gen, cwd):
    subprocess.run([gen, "generate", "--quiet"], cwd=cwd, check=True)


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def make_origin(tmp, gen):
    """A bare origin whose main holds a project with its generated directory, and a clone."""
    origin, work = tmp / "origin.git", tmp / "work"
    git(tmp, "init", "--quiet", "--bare", "--initial-branch=main", str(origin))
    git(tmp, "clone", "--quiet", str(origin), str(work))
    git(work, "config", "user.email", "ci@example.com")
    git(work, "config", "user.name", "CI")
    write(work / "threadlink.json", '{ "domains": [ { "name": "Game.Items", "output": "items.h", "reserve_zero": true } ] }\n')
    write(work / "injectors" / "Game.Items.User.txt", "Coin\nPotion\n")
    write(work / "threadlink-allow.txt", "# approved breaking changes, one a line\n")
    write(work / ".gitignore", ".threadlink-gen.stamp\n.threadlink-gen.quick\n")
    generate(gen, work)
    git(work, "add", "-A")
    git(work, "commit", "--quiet", "-m", "base")
    git(work, "push", "--quiet", "origin", "main")
    return work


def pull_request(work, gen, branch, items, allow=None):
    """A commit on a branch from main: the injector as given, generated, committed."""
    git(work, "checkout", "--quiet", "-B", branch, "origin/main")
    write(work / "injectors" / "Game.Items.User.txt", items)
    if allow:
        write(work / "threadlink-allow.txt", allow)
    generate(gen, work)
    git(work, "add", "-A")
    git(work, "commit", "--quiet", "-m", branch)


def run_recipe(work, script, gen):
    env = dict(os.environ, GITHUB_BASE_REF="main", PATH=os.path.dirname(gen) + os.pathsep + os.environ["PATH"])
    run = subprocess.run(["bash", "-eo", "pipefail", "-c", script], cwd=work, env=env, capture_output=True, text=True)
    return run.returncode, run.stdout + run.stderr


def expect(case, rc, out, want_rc, want_text):
    if rc != want_rc or want_text not in out:
        print("FAIL: %s: exit %d (want %d), output:\n%s" % (case, rc, want_rc, out))
        return 1
    print("ok: %s (exit %d)" % (case, rc))
    return 0


def main():
    root, gen = pathlib.Path(sys.argv[1]), os.path.abspath(sys.argv[2])
    script = recipe_script((root / "docs" / "ci.md").read_text())
    failed = 0
    with tempfile.TemporaryDirectory(prefix="tl-ci-") as tmp:
        work = make_origin(pathlib.Path(tmp), gen)
        pull_request(work, gen, "rename-recorded", "Coin\nElixir <- Potion\n")
        rc, out = run_recipe(work, script, gen)
        failed += expect("a recorded rename passes", rc, out, 0,
                         "::notice file=generated/Game.Items.manifest.json,line=7::Game.Items: Elixir (user.elixir) renamed")
        pull_request(work, gen, "rename-unrecorded", "Coin\nElixir\n")
        rc, out = run_recipe(work, script, gen)
        failed += expect("an unrecorded rename fails", rc, out, 1,
                         "a rename record keeps the value: restore the base's manifest, write 'Elixir <- Potion', run generate) [breaking]")
        pull_request(work, gen, "rename-approved", "Coin\nElixir\n", "# Potion is gone for good (review #12)\nuser.potion\n")
        rc, out = run_recipe(work, script, gen)
        failed += expect("an approved break passes", rc, out, 0, "[breaking, approved]")
        # Stale generated files (an injector changed without generate) fail at check, first.
        git(work, "checkout", "--quiet", "rename-recorded")
        write(work / "injectors" / "Game.Items.User.txt", "Coin\nElixir <- Potion\nSword\n")
        rc, out = run_recipe(work, script, gen)
        failed += expect("stale generated files fail", rc, out, 1, "out of date: run threadlink-gen generate")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
