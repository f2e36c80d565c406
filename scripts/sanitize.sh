#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and under ThreadSanitizer (each in its own
# build folder), offscreen. Both must be clean: a report fails the run.
#   scripts/sanitize.sh            # both
#   scripts/sanitize.sh address    # one of them
set -euo pipefail
cd "$(dirname "$0")/.."
export SDL_VIDEODRIVER=offscreen
unset DISPLAY
# Leaks in the system's GL and SDL libraries are not ours to fix; everything else is an error.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
for sanitizer in "${@:-address thread}"; do
  for s in $sanitizer; do
    echo "== swift test --sanitize=$s" >&2
    swift test --disable-swift-testing --sanitize="$s" --scratch-path ".build-$s" -Xswiftc -use-ld=lld
  done
done
