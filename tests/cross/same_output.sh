#!/bin/sh
# A program built for the build machine and the same program built for the host of a cross build
# must print the same standard output (line ends aside: Wine's C runtime writes CR LF).
#   same_output.sh NATIVE_PROGRAM HOST_PROGRAM
# meson test names the cross file's exe_wrapper in MESON_EXE_WRAPPER.
set -u
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$1" >"$work/native" || { echo "FAIL: $1 exits with $?"; exit 1; }
eval "${MESON_EXE_WRAPPER:-}" '"$2"' >"$work/host.crlf" || { echo "FAIL: $2 exits with $?"; exit 1; }
tr -d '\r' <"$work/host.crlf" >"$work/host"
if ! cmp -s "$work/native" "$work/host"; then
  echo "FAIL: $2 prints other output than $1:"; diff "$work/native" "$work/host" | head -n 20; exit 1
fi
echo "ok: $(wc -l <"$work/host") lines, the same on both machines"
