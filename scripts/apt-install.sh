#!/bin/sh
# Install Debian packages for the project's own scripts (ensure-chromium.sh, ensure-postgres.sh):
#
#   scripts/apt-install.sh PACKAGE...
#
# As root, or with sudo without a password. Runs `apt-get update` only if the first attempt
# fails. Test workers install at the same time: they take turns on one lock (a package already
# there is a quick no-op for the next one), and apt waits for dpkg's lock held by anything else
# instead of failing at once. All output goes to stderr.
set -eu
[ $# -gt 0 ] || { echo "usage: apt-install.sh PACKAGE..." >&2; exit 2; }
SUDO=""
if [ "$(id -u)" != "0" ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo -n"
    else
        echo "apt-install: $* missing and this user cannot install it (apt-get install $*)" >&2
        exit 1
    fi
fi
exec 9>"${TMPDIR:-/tmp}/cardtable-apt.lock"
flock 9
install() {
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
        install -y -q --no-install-recommends "$@" >&2
}
if ! install "$@"; then
    $SUDO apt-get -o DPkg::Lock::Timeout=600 update -q >&2
    install "$@"
fi
