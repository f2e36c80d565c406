#!/usr/bin/env bash
# Installs the Debian packages Tessera needs (SDL2, SDL2_image, TurboJPEG, zlib, libpng,
# GLib, FreeType, HarfBuzz, FriBidi, fontconfig, SQLite, Xvfb, DejaVu fonts; Noto fonts for the demo's scripts; Material Icons for `Icon(named:)`; for the tests, a session bus daemon and python3-gi, which runs a stand-in file chooser portal; for the accessibility tests, at-spi2-core's bus and registry, dbus-launch, pyatspi and xdotool; xwd (x11-apps) for the damage check; gexiv2 for the browser's XMP sidecars, and exiv2, the independent reader its tests check them with) when any is missing. Non-interactive; uses sudo if not root.
set -euo pipefail
packages=(libsdl2-dev libsdl2-image-dev libturbojpeg0-dev libjpeg62-turbo-dev zlib1g-dev libpng-dev libglib2.0-dev libfreetype-dev libharfbuzz-dev libfribidi-dev libfontconfig-dev libsqlite3-dev
          xvfb xauth fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
          fonts-material-design-icons-iconfont
          dbus-daemon python3-gi
          at-spi2-core dbus-x11 python3-pyatspi xdotool x11-apps
          libgexiv2-dev exiv2)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all system packages present" >&2
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing ${missing[*]}" >&2
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
