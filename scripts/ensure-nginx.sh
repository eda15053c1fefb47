#!/bin/sh
# Make sure Debian's nginx is installed at /usr/sbin/nginx (tests/server/test_nginx.py puts it
# in front of a server with the block of docs/deploy.md, started as the current user with a
# config of its own). Installs the Debian package `nginx-light` when missing
# (scripts/apt-install.sh: root or sudo without a password; test workers calling it at the same
# time take turns). The package's own service is not needed: tests start their own nginx.
set -eu
BIN=${NGINX:-/usr/sbin/nginx}
[ -x "$BIN" ] && exit 0
sh "$(dirname "$0")/apt-install.sh" nginx-light || sh "$(dirname "$0")/apt-install.sh" nginx
[ -x "$BIN" ] || { echo "ensure-nginx: $BIN still missing after the install" >&2; exit 1; }
