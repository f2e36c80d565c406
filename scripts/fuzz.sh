#!/usr/bin/env bash
# Runs one libFuzzer target for SECONDS (default 60) under AddressSanitizer:
#   scripts/fuzz.sh FuzzImageHeader 900
# Targets: FuzzImageHeader, FuzzThumbnail, FuzzThumbnailCache, FuzzReplay, FuzzStateFile, FuzzSavedState,
# FuzzSidecar, FuzzIndexRow (Fuzz/Sources). An input that takes over 10 s is a finding. Each
# starts from its seed corpus in Fuzz/Corpus/<target> (copied: the repository's corpus is not
# changed) and keeps what it learns in .fuzz/<target>/corpus. A finding is written to
# .fuzz/<target>/ and the script exits non-zero: add the file to the regression tests.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET [SECONDS]}
seconds=${2:-60}
[ -d "Fuzz/Sources/$target" ] || { echo "fuzz: no target $target (see Fuzz/Sources)" >&2; exit 2; }
# SwiftPM keeps the build plan of a path dependency (.., this repository) until its
# manifest changes, so it misses source files added since: plan anew every time.
# Optimized (with debug information): an unoptimized Swift resampler under ASan runs a few
# inputs a second.
rm -f .build-fuzz/release.yaml .build-fuzz/release/description.json
swift build -c release --package-path Fuzz --scratch-path .build-fuzz --product "$target" -Xswiftc -g \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xcc -fsanitize=address -Xswiftc -use-ld=lld >&2
work=".fuzz/$target"
mkdir -p "$work/corpus"
cp -n Fuzz/Corpus/"$target"/* "$work/corpus/" 2>/dev/null || true
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export SDL_VIDEODRIVER=offscreen
".build-fuzz/release/$target" "$work/corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 \
  -artifact_prefix="$work/" -print_final_stats=1
