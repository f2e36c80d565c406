#!/usr/bin/env bash
# Lints the Swift sources with the toolchain's `swift format lint` and the repository's
# `.swift-format` (lines of 120 at most, one statement a line): any finding fails, layout
# included, so the tree stays as `swift format format` leaves it. To fix the layout:
#   swift format format --configuration .swift-format --in-place --recursive <paths below>
# Also fails on trailing whitespace, and on a function in Sources/ over 80 lines
# (scripts/long-functions.py).
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Assets/AssetLocator.swift Examples/FileBrowser/Sources Examples/FileBrowser/Tests
       Examples/FileBrowser/Package.swift Package.swift Fuzz/Sources Fuzz/Package.swift)
out=$(swift format lint --configuration .swift-format --recursive --parallel "${paths[@]}" 2>&1 || true)
findings=$(grep -E 'warning: \[|error:' <<< "$out" || true)
files=$(find "${paths[@]}" -name '*.swift' | wc -l)
if [ -n "$findings" ]; then
  echo "$findings"
  echo "swift format lint: $(wc -l <<< "$findings") finding(s) in $files files" >&2
  exit 1
fi
trailing=$(grep -rnE '[[:space:]]+$' --include='*.swift' "${paths[@]}" || true)
if [ -n "$trailing" ]; then
  echo "$trailing"
  echo "trailing whitespace" >&2
  exit 1
fi
python3 scripts/long-functions.py 80 Sources
echo "swift format lint: $files files, no findings; no function in Sources over 80 lines" >&2
