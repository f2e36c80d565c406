#!/bin/sh
# Builds the startup peers of `GalleryDemo bench startup` (Peers/startup) into
# /tmp/tessera-peers (or $1): Dear ImGui with SDL's renderer, and GTK 4's ColumnView.
# Installs what they need (Debian: libimgui-dev, libstb-dev, libgtk-4-dev, g++) when missing.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/tessera-peers}
missing=""
for package in libimgui-dev libstb-dev libgtk-4-dev g++ libsdl2-dev; do
    dpkg -s "$package" >/dev/null 2>&1 || missing="$missing $package"
done
if [ -n "$missing" ]; then
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
fi
mkdir -p "$out"
backends=/usr/share/doc/libimgui-dev/examples/backends
g++ -O2 -o "$out/imgui_startup" "$here/Peers/startup/imgui_startup.cpp" "$backends/imgui_impl_sdl.cpp" \
    "$backends/imgui_impl_sdlrenderer.cpp" -I/usr/include/imgui -I/usr/include/imgui/backends \
    $(sdl2-config --cflags --libs) $(pkg-config --libs imgui stb)
cc -O2 -o "$out/gtk4_startup" "$here/Peers/startup/gtk4_startup.c" $(pkg-config --cflags --libs gtk4)
echo "$out"
