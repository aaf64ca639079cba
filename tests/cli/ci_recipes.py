#!/usr/bin/env python3
"""Runs the CI recipes of docs/ci/ as a CI service would, minus the service.

For each recipe (a GitHub Actions workflow and a GitLab CI job) this reads
the YAML, then runs its shell steps verbatim, in order, with the recipe's
variables, in a copy of the checkout; then it checks that what the recipe
uploads or keeps exists: the SARIF log (JSON, version 2.1.0), the JUnit XML
and the HTML reports. It also checks that docs/CI.md shows each file as it
is.

What it does not run, said here once:
  - steps that use a hosting service's action (`uses:`: actions/checkout,
    github/codeql-action/upload-sarif, actions/upload-artifact) and GitLab's
    `artifacts:`; their inputs are checked to exist instead;
  - `apt-get ...` steps, which need root in the job's container;
  - `./setup.sh`, which installs Debian packages and builds build/: the
    binary under test is put at build/outbox-check instead.
Any other step is run; a step that mentions apt-get or setup.sh in another
form fails the test, so that the recipe and this list stay in step.

Usage: ci_recipes.py OUTBOX_CHECK (from the project's root). Needs PyYAML
(python3-yaml, which ./setup.sh --tests installs).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

import yaml

SETUP = "./setup.sh"
GITLAB_RESERVED = {"default", "include", "stages", "variables", "workflow",
                   "image", "services", "cache", "before_script",
                   "after_script"}


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def copy_checkout(root, checker, into):
    """A copy of the checkout without build folders, with the binary under
    test where ./setup.sh would have built it."""
    def skip(folder, names):
        if os.path.samefile(folder, root):
            return [n for n in names if n.startswith("build")
                    or n in (".git", "outbox-reports")]
        return []
    shutil.copytree(root, into, ignore=skip, symlinks=True)
    os.makedirs(os.path.join(into, "build"))
    os.symlink(checker, os.path.join(into, "build", "outbox-check"))


def run_step(script, where, env):
    """Runs one shell step as the services do (bash, stop at the first
    failing command). Returns nothing; fails the test on a non-zero exit."""
    if script.strip() == SETUP:
        print("  substituted: " + SETUP + " (the binary under test is build/outbox-check)")
        return
    if "apt-get" in script:
        print("  not run (needs root): " + script.strip())
        return
    if "setup.sh" in script:
        fail("a setup.sh step this test does not know how to stand in for: " + script)
    print("  run: " + script.strip())
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                          cwd=where, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        fail("exit code %d from %r\n%s%s" % (done.returncode, script, done.stdout, done.stderr))


def environment(*tables):
    env = dict(os.environ)
    for table in tables:
        for key, value in (table or {}).items():
            env[str(key)] = str(value)
    return env


def run_github(recipe, where):
    """Returns the files the workflow uploads: (SARIF files, artifact paths)."""
    sarif, kept = [], []
    for name, job in recipe["jobs"].items():
        print("GitHub Actions job " + name)
        for step in job["steps"]:
            if "uses" in step:
                action = step["uses"].split("@")[0]
                print("  not run (a service's action): " + step["uses"])
                inputs = step.get("with", {})
                if action == "github/codeql-action/upload-sarif":
                    sarif.append(inputs["sarif_file"])
                elif action == "actions/upload-artifact":
                    kept += [p for p in inputs["path"].split("\n") if p.strip()]
                continue
            env = environment(recipe.get("env"), job.get("env"), step.get("env"))
            run_step(step["run"], where, env)
    return sarif, kept


def run_gitlab(recipe, where):
    """Returns the files the job keeps: (JUnit reports, artifact paths)."""
    junit, kept = [], []
    for name, job in recipe.items():
        if name in GITLAB_RESERVED or name.startswith(".") or not isinstance(job, dict):
            continue
        print("GitLab CI job " + name)
        env = environment(recipe.get("variables"), job.get("variables"))
        for part in ("before_script", "script"):
            for line in job.get(part, []):
                run_step(line, where, env)
        artifacts = job.get("artifacts", {})
        kept += artifacts.get("paths", [])
        report = artifacts.get("reports", {}).get("junit")
        if report:
            junit += report if isinstance(report, list) else [report]
    return junit, kept


def check_outputs(where, sarif, junit, kept):
    for path in kept:
        if not os.path.exists(os.path.join(where, path)):
            fail("the recipe keeps %s, which its steps did not write" % path)
    for path in sarif:
        with open(os.path.join(where, path)) as f:
            log = json.load(f)
        if log.get("version") != "2.1.0":
            fail("%s is not a SARIF 2.1.0 log" % path)
        print("  SARIF 2.1.0: %s, %d runs" % (path, len(log.get("runs", []))))
    for path in junit:
        tree = ElementTree.parse(os.path.join(where, path))
        cases = tree.getroot().iter("testcase")
        count = sum(1 for _ in cases)
        if count == 0:
            fail("%s holds no test case" % path)
        print("  JUnit: %s, %d test cases" % (path, count))
    reports = [p for p in kept if os.path.isdir(os.path.join(where, p))]
    for folder in reports:
        pages = [n for n in os.listdir(os.path.join(where, folder)) if n.endswith(".html")]
        if "index.html" not in pages or len(pages) < 2:
            fail("%s holds no HTML reports" % folder)
        print("  HTML: %s, %d pages" % (folder, len(pages)))


def check_page_copies(root, names):
    """docs/CI.md shows each file in the first yaml block after the line
    that links it; that block must be the file, byte for byte."""
    lines = open(os.path.join(root, "docs", "CI.md")).read().split("\n")
    for name in names:
        link = "(ci/%s)" % name
        start = next((i for i, l in enumerate(lines) if link in l), None)
        if start is None:
            fail("docs/CI.md does not link ci/" + name)
        fence = next(i for i in range(start, len(lines)) if lines[i] == "```yaml")
        end = lines.index("```", fence + 1)
        shown = "\n".join(lines[fence + 1:end]) + "\n"
        if shown != open(os.path.join(root, "docs", "ci", name)).read():
            fail("docs/CI.md's copy of ci/%s differs from the file" % name)
        print("docs/CI.md shows ci/%s as it is" % name)


def main():
    checker = os.path.abspath(sys.argv[1])
    root = os.getcwd()
    recipes = {"github-actions.yml": run_github, "gitlab-ci.yml": run_gitlab}
    check_page_copies(root, recipes)
    for name, run in recipes.items():
        with open(os.path.join(root, "docs", "ci", name)) as f:
            recipe = yaml.safe_load(f)
        with tempfile.TemporaryDirectory() as work:
            where = os.path.join(work, "checkout")
            copy_checkout(root, checker, where)
            first, kept = run(recipe, where)
            if run is run_github:
                check_outputs(where, first, ["outbox-reports/junit.xml"], kept)
            else:
                check_outputs(where, ["outbox.sarif"], first, kept)
    print("both CI recipes run and leave SARIF, JUnit and HTML reports")


main()
