#!/bin/sh
# Installs the bundle for the current user: dist/anima/ (or an unpacked tarball's anima/) to ~/.local/opt/anima,
# the `anima` command to ~/.local/bin, the menu entry and its icon. Run from the folder that holds anima/.
set -eu
src="${1:-dist/anima}"
[ -x "$src/anima" ] || { echo "No bundle at $src (make dist builds one)." >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
data="${XDG_DATA_HOME:-$HOME/.local/share}"
rm -rf "$HOME/.local/opt/anima"
mkdir -p "$HOME/.local/opt" "$HOME/.local/bin" "$data/applications" "$data/icons/hicolor/256x256/apps" \
         "$data/icons/hicolor/scalable/apps"
cp -a "$src" "$HOME/.local/opt/anima"
ln -sf "$HOME/.local/opt/anima/anima" "$HOME/.local/bin/anima"
res="$HOME/.local/opt/anima/_internal/anima/resources"
cp "$res/anima.png" "$data/icons/hicolor/256x256/apps/anima.png"
cp "$res/anima.svg" "$data/icons/hicolor/scalable/apps/anima.svg"
sed "s|^Exec=anima$|Exec=$HOME/.local/opt/anima/anima|" "$here/anima.desktop" > "$data/applications/anima.desktop"
echo "Installed Anima to $HOME/.local/opt/anima; start it from the menu or with \`anima\`."
