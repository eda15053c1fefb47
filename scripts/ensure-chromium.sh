#!/bin/sh
# Make sure Debian's Chromium is installed at /usr/bin/chromium (the browser tests of tests/web
# drive it headless through Playwright; Playwright's own browser downloads are never used).
# Installs the Debian package when missing (scripts/apt-install.sh: root or sudo without a
# password; test workers calling it at the same time take turns). With it a colour emoji font
# (the table talk's reactions are emoji, as on the players' phones; without the font the
# screenshots show empty boxes).
set -eu
BIN=${CHROMIUM:-/usr/bin/chromium}
EMOJI=/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf
[ -x "$BIN" ] && [ -f "$EMOJI" ] && exit 0
sh "$(dirname "$0")/apt-install.sh" chromium fonts-noto-color-emoji
[ -x "$BIN" ] || { echo "ensure-chromium: $BIN still missing after the install" >&2; exit 1; }
