#!/usr/bin/env python3
"""Check that beacon's stdout is JSON lines matching docs/output.schema.json.

usage: validate_output.py [--schema FILE] [--each] [FILE ...]      (no FILE: read stdin)

Every line must be one JSON object valid against the schema; blank lines are
errors too. Prints nothing and exits 0 when all lines are valid; otherwise
prints, for each offending line, `Error: SOURCE:LINE: reason` and the line
itself on stderr and exits 1. Exit 2 when the schema itself cannot be used.
With --each, prints one line on stdout per input line instead, `ok` or the
reason it is invalid, as each line arrives, and exits 0 (tests check lines that
must be rejected, and keep one validator running for many checks).
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from jsonschema import validators
from jsonschema.exceptions import SchemaError, best_match
from referencing import Registry, Resource

DEFAULT_SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                              os.pardir, 'docs', 'output.schema.json')
MAX_REPORTED = 20


def load_validator(path: str):
    with open(path, encoding='utf-8') as handle:
        schema = json.load(handle)
    cls = validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, registry=sibling_schemas(path), format_checker=cls.FORMAT_CHECKER)


def sibling_schemas(path: str) -> Registry:
    """The schemas next to `path` by file name, so that one refers to another ("$ref": "site.schema.json")."""
    directory = os.path.dirname(os.path.abspath(path))
    resources = []
    for name in sorted(os.listdir(directory)):
        if name.endswith('.schema.json'):
            with open(os.path.join(directory, name), encoding='utf-8') as handle:
                resources.append((name, Resource.from_contents(json.load(handle))))
    return Registry().with_resources(resources)


def problems(validator, lines, source: str):
    """(source, line number, reason, text) for every line that is not a valid event."""
    for number, raw in enumerate(lines, start=1):
        text = raw.rstrip('\n')
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            yield source, number, f'not JSON: {error.msg} at column {error.colno}', text
            continue
        error = best_match(validator.iter_errors(value))
        if error is not None:
            where = '/'.join(str(part) for part in error.absolute_path) or '(top level)'
            yield source, number, f'{where}: {error.message}', text


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--schema', default=os.path.normpath(DEFAULT_SCHEMA),
                        help='JSON Schema file (default: docs/output.schema.json)')
    parser.add_argument('--each', action='store_true',
                        help='print ok or the reason for every line on stdout, exit 0')
    parser.add_argument('files', nargs='*', metavar='FILE')
    args = parser.parse_args()
    try:
        validator = load_validator(args.schema)
    except (OSError, ValueError, SchemaError) as error:
        print(f'Error: schema {args.schema}: {error}', file=sys.stderr)
        return 2

    failures = 0
    sources = args.files or ['-']
    for source in sources:
        try:
            handle = sys.stdin if source == '-' else open(source, encoding='utf-8')
        except OSError as error:
            print(f'Error: {source}: {error.strerror}', file=sys.stderr)
            failures += 1
            continue
        with handle:
            name = '<stdin>' if source == '-' else source
            if args.each:
                # Line by line, flushed: a test may keep one validator running and feed it as it goes.
                for number, line in enumerate(handle, start=1):
                    found = [reason for _, _, reason, _ in problems(validator, [line], name)]
                    print(found[0] if found else 'ok', flush=True)
                continue
            for where, number, reason, text in problems(validator, handle, name):
                failures += 1
                if failures <= MAX_REPORTED:
                    print(f'Error: {where}:{number}: {reason}\n  {text}', file=sys.stderr)
    if failures > MAX_REPORTED:
        print(f'Error: {failures - MAX_REPORTED} more invalid lines not shown', file=sys.stderr)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
