#!/usr/bin/env bash
# Screenshots of every GalleryDemo page, made by the demo itself offscreen: wide (1280x800)
# docs/pages/<page>.png, narrow (720x800) <page>-narrow.png, dark <page>-dark.png, and at
# 1.5× scale <page>-1.5.png; and the Controls page right to left and dark at 1.5×.
# Usage: scripts/screenshots.sh [PHOTO-FOLDER]   (default: the sample library)
# TESSERA_DEMO=path/to/GalleryDemo uses that build instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."
demo=${TESSERA_DEMO:-.build/release/GalleryDemo}
[ -n "${TESSERA_DEMO:-}" ] || swift build -c release --product GalleryDemo >&2
mkdir -p docs/pages
folder=("$@")
for page in photos controls splits navigation table outline input; do
  frames=20
  [ "$page" = photos ] && frames=240   # let the thumbnails arrive
  tour=()
  case "$page" in table|outline|input) tour=(--tour); frames=60 ;; esac
  "$demo" "${folder[@]}" --offscreen --page "$page" "${tour[@]}" --frames "$frames" --size 1280x800 --screenshot "docs/pages/$page.png" >&2
  "$demo" "${folder[@]}" --offscreen --page "$page" "${tour[@]}" --frames "$frames" --size 720x800 --screenshot "docs/pages/$page-narrow.png" >&2
  "$demo" "${folder[@]}" --offscreen --page "$page" "${tour[@]}" --frames "$frames" --size 1280x800 --dark --screenshot "docs/pages/$page-dark.png" >&2
  "$demo" "${folder[@]}" --offscreen --page "$page" "${tour[@]}" --frames "$frames" --size 1280x800 --scale 1.5 --screenshot "docs/pages/$page-1.5.png" >&2
done
# The Controls page mirrored (right to left) and in the dark theme at 1.5×.
"$demo" "${folder[@]}" --offscreen --page controls --frames 20 --size 1280x800 --layout-direction rtl --screenshot docs/pages/controls-rtl.png >&2
"$demo" "${folder[@]}" --offscreen --page controls --frames 20 --size 1280x800 --dark --scale 1.5 --screenshot docs/pages/controls-dark-1.5.png >&2
echo "screenshots in docs/pages" >&2
