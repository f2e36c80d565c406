#!/usr/bin/env bash
# Builds, tests and runs Examples/FileBrowser the way a package of yours uses Tessera: by URL
# and version tag. A copy of the example depends on
#     .package(url: "https://github.com/tessera-ui/Tessera", from: "0.3.0")
# and SwiftPM's mirror setting points that URL at a bare clone of this checkout's HEAD,
# tagged 0.3.0 (commit first: uncommitted changes are not in it). It also builds the API
# reference of the dependency's Widgets module from the consumer, as the Getting Started
# article tells app authors to. Usage: scripts/consumer.sh [WORK_DIR]; output in WORK_DIR/consumer.log.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d)}
rm -rf "$work/Tessera.git" "$work/FileBrowser"
mkdir -p "$work"
log="$work/consumer.log"
: > "$log"
git clone -q --bare "$root" "$work/Tessera.git"
git -C "$work/Tessera.git" tag -f 0.3.0 HEAD > /dev/null
cp -r "$root/Examples/FileBrowser" "$work/FileBrowser"
cd "$work/FileBrowser"
rm -rf .build .swiftpm Package.resolved
python3 - <<'PY'
import re
p = "Package.swift"
s = open(p).read()
by_path = '.package(name: "Tessera", path: "../..")'
assert by_path in s, "Examples/FileBrowser/Package.swift no longer depends on Tessera by path"
s = s.replace(by_path, '.package(url: "https://github.com/tessera-ui/Tessera", from: "0.3.0"),\n'
              '        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0")')
open(p, "w").write(s)
PY
swift package config set-mirror --original https://github.com/tessera-ui/Tessera --mirror "$work/Tessera.git"
fail() { echo "consumer: $1 failed; the end of $log:" >&2; tail -40 "$log" >&2; exit 1; }
swift build >> "$log" 2>&1 || fail "swift build"
python3 -c 'import json; p = [p for p in json.load(open("Package.resolved"))["pins"] if p["identity"] == "tessera"][0]; print("consumer: Tessera resolved by URL at version", p["state"]["version"], p["state"]["revision"][:10])' >&2
swift test --disable-swift-testing >> "$log" 2>&1 || fail "swift test"
grep -E "Executed .* tests" "$log" | tail -1 >&2
.build/debug/FileBrowser "$root" --offscreen --screenshot "$work/consumer.png" >> "$log" 2>&1 || fail "the app"
grep -E "screenshot saved" "$log" >&2
swift package generate-documentation --target Widgets >> "$log" 2>&1 || fail "the dependency's documentation"
grep -E "^Finished building documentation" "$log" >&2
