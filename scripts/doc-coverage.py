#!/usr/bin/env python3
"""Lists the public symbols of Tessera's library modules that have no doc comment.

Reads the symbol graphs `swift package dump-symbol-graph` writes (run it first; its output
folder is the argument, default .build/<triple>/symbolgraph). A symbol counts as documented
when it has a doc comment of its own, or when it implements a protocol requirement or
overrides a documented symbol (DocC shows the inherited documentation). Exits 1 when any
public symbol is undocumented.
"""
import glob
import json
import os
import sys

MODULES = ["Widgets", "Render2D", "Imaging", "Profiling", "TesseraTesting", "TesseraAssets"]


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else (glob.glob(".build/*/symbolgraph") or [""])[0]
    missing = []
    total = 0
    for module in MODULES:
        for path in sorted(glob.glob(os.path.join(folder, f"{module}.symbols.json")) +
                           glob.glob(os.path.join(folder, f"{module}@*.symbols.json"))):
            graph = json.load(open(path))
            inherited = {r["source"] for r in graph.get("relationships", [])
                         if r["kind"] in ("requirementOf", "defaultImplementationOf", "overrides", "optionalRequirementOf")}
            for symbol in graph["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                if symbol["kind"]["identifier"] in ("swift.extension",) or "location" not in symbol:
                    continue  # extensions, and members inherited from the standard library's extensions
                precise = symbol["identifier"]["precise"]
                total += 1
                if "docComment" in symbol or precise in inherited:
                    continue
                if symbol["names"]["title"] in STANDARD_REQUIREMENTS:
                    continue
                missing.append(f"{module}: {'.'.join(symbol['pathComponents'])}  ({symbol['kind']['displayName']})")
    for line in sorted(set(missing)):
        print(line)
    print(f"{len(set(missing))} of {total} public symbols have no doc comment", file=sys.stderr)
    sys.exit(1 if missing else 0)


# Members that implement the standard library's protocols, documented there.
STANDARD_REQUIREMENTS = {
    "==(_:_:)", "<(_:_:)", "hash(into:)", "hashValue", "description", "debugDescription",
    "init(from:)", "encode(to:)", "makeIterator()", "next()", "startIndex", "endIndex",
    "subscript(_:)", "index(after:)", "index(before:)", "init(rawValue:)", "rawValue",
    "init(arrayLiteral:)", "init(integerLiteral:)", "init(stringLiteral:)", "id", "count",
    "isEmpty", "underestimatedCount", "Element", "Index", "Iterator", "SubSequence", "Indices",
    "ArrayLiteralElement", "RawValue", "ID", "allCases", "AllCases", "errorDescription",
}

if __name__ == "__main__":
    main()
