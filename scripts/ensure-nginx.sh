#!/bin/sh
# Make sure Debian's nginx is installed at /usr/sbin/nginx, and openssl (the tests make a
# self-signed certificate with it). tests/server/test_nginx.py, test_rolling_restart.py and
# test_deploy_walkthrough.py put nginx in front of servers with the shipped files,
# deploy/nginx/cardtable.conf and nginx.conf, started as the current user with paths of their
# own (tests/server/nginx_helpers.py). Installs the Debian package `nginx-light` when missing
# (scripts/apt-install.sh: root or sudo without a password; test workers calling it at the
# same time take turns). The package's own service is not needed: tests start their own nginx.
set -eu
BIN=${NGINX:-/usr/sbin/nginx}
if ! command -v openssl >/dev/null 2>&1; then
    sh "$(dirname "$0")/apt-install.sh" openssl
fi
[ -x "$BIN" ] && exit 0
sh "$(dirname "$0")/apt-install.sh" nginx-light || sh "$(dirname "$0")/apt-install.sh" nginx
[ -x "$BIN" ] || { echo "ensure-nginx: $BIN still missing after the install" >&2; exit 1; }
