#!/usr/bin/env bash
# Runs GalleryDemo under Xvfb and checks, from outside, that frames which redraw and present only
# what changed leave the window showing what a whole frame shows: the pointer moves over the
# table's rows (each move redraws two rows' highlight), the window is dumped with xwd, then
# unmapped and mapped again (which makes the next frame whole) and dumped again; the two dumps
# must be the same pixels. On llvmpipe under Xvfb, frames are presented by copying only their
# damaged regions (GLX_MESA_copy_sub_buffer); elsewhere by whichever way the driver allows.
# usage: scripts/damage-check.sh [path to GalleryDemo]   (default: the debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/scratch-desktop.sh
"$demo" --size 900x600 --page table --light > "$scratch/demo.log" 2>&1 &
demo_pid=$!

window=""
for _ in $(seq 600); do
  window=$(xdotool search --onlyvisible --name '^Tessera' 2>/dev/null | head -1 || true)
  [ -n "$window" ] && break
  kill -0 "$demo_pid" 2>/dev/null || fail "the demo exited"
  sleep 0.1
done
[ -n "$window" ] || fail "no window within 60 s"
sleep 2  # the first frames, the table's rows
for y in 150 180 210 240 270 300 330; do
  xdotool mousemove --window "$window" 300 "$y"
  sleep 0.2
done
xdotool mousemove --window "$window" 300 250  # rest on a row: its highlight stays
sleep 1
xwd -id "$window" -silent > "$scratch/moved.xwd" || fail "xwd could not dump the window"
ok "hovered seven rows, one after another"
xdotool windowunmap --sync "$window"
xdotool windowmap --sync "$window"
sleep 1
xwd -id "$window" -silent > "$scratch/whole.xwd" || fail "xwd could not dump the window"
kill -0 "$demo_pid" 2>/dev/null || fail "the demo exited"
comparison=$(python3 scripts/xwd-compare.py "$scratch/moved.xwd" "$scratch/whole.xwd") \
  || fail "the window after the moves differs from the same frame drawn whole: $comparison"
ok "the window after the moves is the same as the frame drawn whole ($comparison)"
grep -q "present only their damaged regions" "$scratch/demo.log" || fail "frames were not presented as damaged regions"
ok "frames were presented as damaged regions (GLX_MESA_copy_sub_buffer)"
kill "$demo_pid"
