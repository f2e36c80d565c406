#!/usr/bin/env python3
"""Checks the public API of Tessera's library modules against the baseline in api/.

Reads the symbol graphs `swift package dump-symbol-graph --minimum-access-level public`
writes (run it first; default folder .build/<triple>/symbolgraph) and lists, per module,
every public symbol as its path and declaration, one line each, sorted. A difference from
api/<Module>.txt fails: change the API on purpose, say so in CHANGELOG.md's "API changes",
and write the new baseline with --update.

usage: scripts/api-check.py [--update] [SYMBOLGRAPH_FOLDER]"""
import glob
import json
import os
import sys

MODULES = ["Widgets", "Render2D", "Imaging", "Profiling", "TesseraTesting", "TesseraAssets"]


def declarations(folder, module):
    lines = set()
    paths = glob.glob(os.path.join(folder, f"{module}.symbols.json")) + glob.glob(os.path.join(folder, f"{module}@*.symbols.json"))
    for path in paths:
        for symbol in json.load(open(path))["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open") or symbol["kind"]["identifier"] == "swift.extension":
                continue
            if "location" not in symbol:
                continue  # inherited from the standard library's extensions
            declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
            lines.add(f"{'.'.join(symbol['pathComponents'])}: {' '.join(declaration.split())}")
    return sorted(lines)


def main():
    args = [a for a in sys.argv[1:] if a != "--update"]
    update = "--update" in sys.argv[1:]
    folder = args[0] if args else (glob.glob(".build/*/symbolgraph") or [""])[0]
    changed = 0
    for module in MODULES:
        current = declarations(folder, module)
        if not current:
            print(f"api: no symbol graph for {module} in {folder!r}; run swift package dump-symbol-graph first", file=sys.stderr)
            return 2
        baseline_path = f"api/{module}.txt"
        if update:
            with open(baseline_path, "w") as out:
                out.write("\n".join(current) + "\n")
            continue
        baseline = open(baseline_path).read().splitlines() if os.path.exists(baseline_path) else []
        added, removed = sorted(set(current) - set(baseline)), sorted(set(baseline) - set(current))
        for line in removed:
            print(f"{module}: - {line}")
        for line in added:
            print(f"{module}: + {line}")
        changed += len(added) + len(removed)
    if update:
        print("api: baseline written to api/", file=sys.stderr)
        return 0
    if changed:
        print(f"api: {changed} public declaration(s) differ from api/: say why in CHANGELOG.md, then "
              "scripts/api-check.py --update", file=sys.stderr)
        return 1
    print("api: the public API matches api/", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
