#!/bin/sh
# Installs the Debian packages of the given lists (one name a line, '#' comments) that are not
# installed yet: apt-get update once, then apt-get install, as root. Does nothing when all are
# there; otherwise, not as root, names what is missing and fails.
#   examples/install-packages.sh LIST...
set -eu
missing=""
for p in $(grep -h -v '^#' "$@"); do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -n "$missing" ] || exit 0
if [ "$(id -u)" != 0 ]; then
  echo "missing Debian packages:$missing (run as root to install them)" >&2
  exit 1
fi
echo "installing:$missing"
apt-get update
apt-get install -y --no-install-recommends $missing
