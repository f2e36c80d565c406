# Sourced by the checks that run GalleryDemo as a user would (a11y-check.sh, windows-check.sh):
# builds the demo if needed ($demo, default the debug build), makes a scratch home that is
# removed on exit, starts Xvfb on a free display and points DISPLAY, HOME and the XDG folders
# there, so nothing of the user's is touched.
demo=${1:-.build/debug/GalleryDemo}
[ -x "$demo" ] || swift build --product GalleryDemo >&2
scratch=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$scratch"' EXIT
# Xvfb picks a free display itself and writes its number once it accepts connections; on a
# machine still busy with the sanitizer runs before this check that can take many seconds.
# -noreset: an X server resets when its last client leaves (xdotool, dbus-launch), and a client
# connecting during that reset is refused: the demo then found "x11 not available".
Xvfb -displayfd 3 -noreset -screen 0 1600x1000x24 -nolisten tcp 3>"$scratch/display" >/dev/null 2>&1 &
for _ in $(seq 600); do [ -s "$scratch/display" ] && break; sleep 0.1; done
[ -s "$scratch/display" ] || { echo "scratch desktop: Xvfb did not start within 60 s" >&2; exit 1; }
export DISPLAY=:$(head -1 "$scratch/display") HOME=$scratch XDG_CONFIG_HOME=$scratch/config XDG_DATA_HOME=$scratch/data XDG_CACHE_HOME=$scratch/cache
# And until a client can talk to it (xdotool opens the display like the demo will).
for _ in $(seq 300); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done

# The checks' verdicts: `ok` notes a step that passed; `fail` says why one did not, shows the
# demo's log ($scratch/demo.log, where the checks send it) and ends the check.
ok() { echo "ok - $*"; }
fail() { echo "FAILED: $*" >&2; echo "--- the demo's log:" >&2; cat "$scratch/demo.log" >&2 || true; exit 1; }
