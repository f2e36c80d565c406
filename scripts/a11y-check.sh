#!/usr/bin/env bash
# Runs GalleryDemo in a private desktop session with accessibility on (Xvfb, a session bus
# from dbus-launch, at-spi2-core's bus launcher and registry) and checks it with an
# independent AT-SPI client, scripts/a11y-check.py (pyatspi). Nothing of the user's is
# touched: the demo's state and sample library go to a scratch home.
# usage: scripts/a11y-check.sh [path to GalleryDemo]   (default: the debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/scratch-desktop.sh
export XDG_RUNTIME_DIR=$scratch/run && mkdir -m 700 -p "$XDG_RUNTIME_DIR"
eval "$(dbus-launch --sh-syntax)"
trap 'kill $(jobs -p) $DBUS_SESSION_BUS_PID 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$scratch"' EXIT
# Turn accessibility on as a desktop does when a screen reader starts (this starts the bus launcher).
dbus-send --session --dest=org.a11y.Bus --print-reply /org/a11y/bus org.freedesktop.DBus.Properties.Set \
  string:org.a11y.Status string:IsEnabled variant:boolean:true >/dev/null
# X11 only: a display that fails says why, instead of SDL falling back to a window nobody sees.
SDL_VIDEODRIVER=x11 "$demo" --size 1280x800 --page photos --light > "$scratch/demo.log" 2>&1 &
status=0
/usr/bin/python3 scripts/a11y-check.py "Tessera — GalleryDemo" || status=$?
if [ $status -ne 0 ]; then echo "--- the demo's log:" >&2; cat "$scratch/demo.log" >&2; fi
exit $status
