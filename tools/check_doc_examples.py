#!/usr/bin/env python3
"""Runs the shell examples of Markdown files and compares their output with the output shown.

A shell example is a fenced block tagged sh, shell, bash or console, or an untagged block whose first
line starts with "$ ". In a block with "$ " prompts, each prompt's command runs and its standard
output must equal the lines shown up to the next prompt; a block without prompts runs as one script
that must succeed. The examples of one file run in order, in one scratch directory, with the beacon
under test first on PATH, so a later example can use the files an earlier one wrote.

A block tagged yaml must parse (PyYAML), and a Home Assistant configuration in it must use the current
form: MQTT entities in lists under a top-level `mqtt:` key, never `platform: mqtt` under a domain
(Home Assistant 2022.12 removed that form). Each counts as one example.

An HTML comment on the line before the fence changes that:
  <!-- not run: REASON -->        the block is not run (it needs a real controller, root, a service)
  <!-- example: times vary -->    ISO-8601 times in the output match any time (the clock was read)

Usage: check_doc_examples.py --beacon PATH FILE...
Prints one line per example, the blocks not run with their reasons, and
"doc examples: N passed, N failed, N not run"; exits 1 when any failed.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

SHELL_TAGS = {"sh", "shell", "bash", "console"}
YAML_TAGS = {"yaml", "yml"}
MARKER = re.compile(r"^<!--\s*(not run:|example:)\s*(.*?)\s*-->$")
TIME = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z")


def blocks(path):
    """(line number, info string, marker, lines) for every fenced block of the file."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    found, index = [], 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("```"):
            info = line[3:].strip()
            previous = lines[index - 1].strip() if index > 0 else ""
            marker = MARKER.match(previous)
            body, index = [], index + 1
            while index < len(lines) and not lines[index].startswith("```"):
                body.append(lines[index])
                index += 1
            found.append((index - len(body), info, marker.groups() if marker else None, body))
        index += 1
    return found


def is_shell_example(info, body):
    if info in SHELL_TAGS:
        return True
    first = next((line for line in body if line.strip()), "")
    return info == "" and first.startswith("$ ")


def yaml_problem(body):
    """Why a YAML block is not a configuration Home Assistant reads today, or None."""
    try:
        documents = list(yaml.safe_load_all("\n".join(body)))
    except yaml.YAMLError as error:
        return "not valid YAML: " + " ".join(str(error).split())
    for document in documents:
        if not isinstance(document, dict):
            continue
        for domain, entries in document.items():
            if domain == "mqtt":
                problem = mqtt_problem(entries)
                if problem:
                    return problem
                continue
            for entry in entries if isinstance(entries, list) else []:
                if isinstance(entry, dict) and entry.get("platform") == "mqtt":
                    return (f"'{domain}:' has '- platform: mqtt', the form Home Assistant removed in 2022.12; "
                            f"list the entity under 'mqtt:' -> '{domain}:' instead")
    return None


def mqtt_problem(entries):
    """Why the value of a top-level `mqtt:` key is not a mapping (or list of mappings) of domains to entity lists."""
    groups = entries if isinstance(entries, list) else [entries]
    for group in groups:
        if not isinstance(group, dict):
            return "'mqtt:' holds neither a mapping of domains nor a list of them"
        for domain, entities in group.items():
            if not isinstance(entities, list) or not all(isinstance(entity, dict) for entity in entities):
                return f"'mqtt:' -> '{domain}:' is not a list of entities"
            if any("platform" in entity for entity in entities):
                return f"an entity under 'mqtt:' -> '{domain}:' has a 'platform:' key, which the mqtt: form does not take"
    return None


def run(command, directory, env):
    result = subprocess.run(["bash", "-c", command], cwd=directory, env=env, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=120)
    return result.returncode, result.stdout.split("\n")[:-1] if result.stdout else [], result.stderr


def same(expected, actual, times_vary):
    if times_vary:
        expected = [TIME.sub("<time>", line) for line in expected]
        actual = [TIME.sub("<time>", line) for line in actual]
    return expected == actual


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--beacon", required=True)
    parser.add_argument("files", nargs="+")
    arguments = parser.parse_args()
    beacon = os.path.abspath(arguments.beacon)
    env = dict(os.environ)
    env.pop("BEACON_HCI", None)
    shim = tempfile.mkdtemp(prefix="beacon-docs-bin-")
    os.symlink(beacon, os.path.join(shim, "beacon"))
    env["PATH"] = shim + os.pathsep + env.get("PATH", "")
    passed = failed = 0
    not_run = []
    try:
        for path in arguments.files:
            directory = tempfile.mkdtemp(prefix="beacon-docs-")
            try:
                for line_number, info, marker, body in blocks(path):
                    where = f"{path}:{line_number}"
                    if info in YAML_TAGS:
                        problem = yaml_problem(body)
                        if problem:
                            failed += 1
                            print(f"FAIL {where} (yaml): {problem}")
                        else:
                            passed += 1
                            print(f"ok   {where} (yaml)")
                        continue
                    if not is_shell_example(info, body):
                        continue
                    if marker and marker[0] == "not run:":
                        not_run.append(f"{where}: {marker[1]}")
                        continue
                    times_vary = bool(marker and marker[0] == "example:" and marker[1] == "times vary")
                    if any(line.startswith("$ ") for line in body):
                        examples, current = [], None
                        for line in body:
                            if line.startswith("$ "):
                                current = (line[2:], [])
                                examples.append(current)
                            elif current is not None:
                                current[1].append(line)
                        for command, expected in examples:
                            while expected and expected[-1] == "":
                                expected.pop()
                            status, actual, errors = run(command, directory, env)
                            if status == 0 and same(expected, actual, times_vary):
                                passed += 1
                                print(f"ok   {where} $ {command}")
                            else:
                                failed += 1
                                print(f"FAIL {where} $ {command} (exit {status})")
                                print("  expected:\n    " + "\n    ".join(expected))
                                print("  actual:\n    " + "\n    ".join(actual))
                                if errors:
                                    print("  stderr:\n    " + errors.rstrip().replace("\n", "\n    "))
                    else:
                        script = "set -e\n" + "\n".join(body)
                        status, _, errors = run(script, directory, env)
                        if status == 0:
                            passed += 1
                            print(f"ok   {where} (script)")
                        else:
                            failed += 1
                            print(f"FAIL {where} (script, exit {status})\n  stderr:\n    " + errors.rstrip().replace("\n", "\n    "))
            finally:
                shutil.rmtree(directory, ignore_errors=True)
    finally:
        shutil.rmtree(shim, ignore_errors=True)
    for entry in not_run:
        print(f"not run: {entry}")
    print(f"doc examples: {passed} passed, {failed} failed, {len(not_run)} not run")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
