#!/bin/sh
# Put monchat on this user's menu and PATH, from the folder this script is in (no root):
#   ./install.sh               ~/.local/bin/monchat (a link to this folder's monchat), the launcher, the icons
#                              and the AppStream data under ~/.local/share
#   ./install.sh --uninstall   removes exactly those again; never your data (~/.local/share/monchat) or settings
# Running either twice is harmless. Move the folder? Run ./install.sh again from its new place.
set -eu

APP_ID=io.github.monchat.monchat
here="$(cd "$(dirname "$0")" && pwd -P)"
data_home="${XDG_DATA_HOME:-$HOME/.local/share}"
bin_dir="$HOME/.local/bin"
link="$bin_dir/monchat"
desktop="$data_home/applications/$APP_ID.desktop"
metainfo="$data_home/metainfo/$APP_ID.metainfo.xml"
icons="$data_home/icons/hicolor"
SIZES="16 22 24 32 48 64 128 256 512"

say() { printf 'install.sh: %s\n' "$*"; }

# Ours: a link to the monchat of a bundle (a folder with install.sh and _internal), or to one since deleted.
is_our_link() {
    [ -L "$1" ] || return 1
    target="$(readlink "$1")"
    case "$target" in */monchat) ;; *) return 1 ;; esac
    [ ! -e "$target" ] || { [ -f "$(dirname "$target")/install.sh" ] && [ -d "$(dirname "$target")/_internal" ]; }
}

refresh_caches() {
    if command -v update-desktop-database >/dev/null 2>&1; then
        update-desktop-database -q "$data_home/applications" 2>/dev/null || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$icons/index.theme" ]; then
        gtk-update-icon-cache -q -f -t "$icons" 2>/dev/null || true
    fi
    if command -v xdg-desktop-menu >/dev/null 2>&1; then
        xdg-desktop-menu forceupdate 2>/dev/null || true
    fi
}

remove() {
    if [ -e "$1" ] || [ -L "$1" ]; then
        rm -f "$1"
        say "removed $1"
    fi
}

if [ "${1:-}" = "--uninstall" ]; then
    if is_our_link "$link"; then
        remove "$link"
    elif [ -e "$link" ]; then
        say "left $link: it is not a link to a monchat bundle (pipx or pip --user put it there?)"
    fi
    remove "$desktop"
    remove "$metainfo"
    for size in $SIZES; do
        remove "$icons/${size}x${size}/apps/$APP_ID.png"
    done
    remove "$icons/scalable/apps/$APP_ID.svg"
    refresh_caches
    say "uninstalled; your conversations and memory stay in $data_home/monchat"
    exit 0
elif [ $# -gt 0 ]; then
    echo "usage: $0 [--uninstall]" >&2
    exit 2
fi

if [ ! -x "$here/monchat" ] || [ ! -d "$here/share" ]; then
    echo "install.sh: run me from the monchat bundle folder (it has monchat and share/ beside me)" >&2
    exit 2
fi
if [ -e "$link" ] && ! is_our_link "$link"; then
    echo "install.sh: $link is another monchat (pipx or pip --user?); remove it first (pipx uninstall monchat)" >&2
    exit 2
fi

mkdir -p "$bin_dir" "$(dirname "$desktop")" "$(dirname "$metainfo")"
ln -sfn "$here/monchat" "$link"
say "linked $link -> $here/monchat"
# The launcher runs the link by its full path: ~/.local/bin is not on every desktop session's PATH.
exec_path="$link"
case "$link" in *" "*) exec_path="\"$link\"" ;; esac  # a home with a space: the Exec key quotes it
sed -e "s|^Exec=monchat|Exec=$exec_path|" -e "s|^TryExec=monchat|TryExec=$link|" \
    "$here/share/applications/$APP_ID.desktop" > "$desktop.tmp"
mv "$desktop.tmp" "$desktop"
say "wrote $desktop"
cp "$here/share/metainfo/$APP_ID.metainfo.xml" "$metainfo"
say "wrote $metainfo"
for size in $SIZES; do
    mkdir -p "$icons/${size}x${size}/apps"
    cp "$here/share/icons/hicolor/${size}x${size}/apps/$APP_ID.png" "$icons/${size}x${size}/apps/"
done
mkdir -p "$icons/scalable/apps"
cp "$here/share/icons/hicolor/scalable/apps/$APP_ID.svg" "$icons/scalable/apps/"
say "wrote icons in $icons (16-512 px and scalable)"
refresh_caches
case ":$PATH:" in
    *":$bin_dir:"*) ;;
    *) say "note: $bin_dir is not on your PATH; add it to run monchat from a terminal" ;;
esac
say "installed; open monchat from your applications menu, or run: $link"
