#!/bin/sh
# Make sure Debian's Chromium is installed at /usr/bin/chromium (the browser tests of tests/web
# drive it headless through Playwright; Playwright's own browser downloads are never used).
# Installs the Debian package with apt-get when missing (root, or sudo without a password);
# runs `apt-get update` only if the first install attempt fails. Test workers call it at the
# same time: one installs while the others wait on a lock, then find the browser there; apt
# also waits for a dpkg lock held by anything else instead of failing at once.
set -eu
BIN=${CHROMIUM:-/usr/bin/chromium}
[ -x "$BIN" ] && exit 0
exec 9>"${TMPDIR:-/tmp}/cardtable-apt.lock"
flock 9
[ -x "$BIN" ] && exit 0
SUDO=""
if [ "$(id -u)" != "0" ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo -n"
    else
        echo "ensure-chromium: $BIN is missing and this user cannot install it (apt-get install chromium)" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
WAIT="-o DPkg::Lock::Timeout=600"
install() { $SUDO apt-get $WAIT install -y -q --no-install-recommends chromium >&2; }
if ! install; then
    $SUDO apt-get $WAIT update -q >&2
    install
fi
[ -x "$BIN" ] || { echo "ensure-chromium: $BIN still missing after the install" >&2; exit 1; }
