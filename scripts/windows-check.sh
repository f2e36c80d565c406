#!/usr/bin/env bash
# Runs GalleryDemo under Xvfb as a user would and checks, from outside with xdotool, that it is
# a multi-window application: Ctrl+N opens a second top-level X11 window, Ctrl+W in it closes
# it again, and the process stays up throughout; then Ctrl+Q quits. Nothing of the user's is
# touched: the demo's state and sample library go to a scratch home.
# usage: scripts/windows-check.sh [path to GalleryDemo]   (default: the debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/scratch-desktop.sh
"$demo" --size 1280x800 --page photos --light > "$scratch/demo.log" 2>&1 &
demo_pid=$!

windows() { xdotool search --onlyvisible --name '^Tessera' 2>/dev/null || true; }
# Waits (up to 60 s) until `windows` lists $1 windows.
wait_for() {
  for _ in $(seq 600); do
    [ "$(windows | wc -l)" -eq "$1" ] && return 0
    kill -0 "$demo_pid" 2>/dev/null || fail "the demo exited"
    sleep 0.1
  done
  fail "expected $1 windows, found $(windows | wc -l)"
}

wait_for 1
first=$(windows)
ok "the demo shows one window ($(xdotool getwindowname "$first"))"
xdotool key --window "$first" ctrl+n
wait_for 2
second=$(windows | grep -v "^$first\$")
ok "Ctrl+N opened a second top-level window ($(xdotool getwindowname "$second"), $(xdotool getwindowgeometry "$second" | sed -n 's/ *Geometry: //p'))"
xdotool key --window "$second" ctrl+w
wait_for 1
[ "$(windows)" = "$first" ] || fail "Ctrl+W closed the wrong window"
kill -0 "$demo_pid" 2>/dev/null || fail "the demo exited"
ok "Ctrl+W closed it; the first window and the process stay"
xdotool key --window "$first" ctrl+q
for _ in $(seq 100); do kill -0 "$demo_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$demo_pid" 2>/dev/null && fail "Ctrl+Q did not quit"
wait "$demo_pid" || fail "the demo exited with status $?"
ok "Ctrl+Q quit cleanly"
echo "all window checks passed"
