#!/bin/sh
# A program built for the build machine and the same program built for the host of a cross build
# must print the same standard output (line ends aside: Wine's C runtime writes CR LF).
#   same_output.sh NATIVE_PROGRAM HOST_PROGRAM
# meson test names the cross file's exe_wrapper in MESON_EXE_WRAPPER.
set -u
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$1" >"$work/native" || { echo "FAIL: $1 exits with $?"; exit 1; }
run_host() {
  eval "${MESON_EXE_WRAPPER:-}" '"$2"' >"$work/host.crlf" 2>"$work/host.err"; status=$?
  cat "$work/host.err" >&2
  return $status
}
# Wine's own client can lose its server on a loaded machine ("wine client error: recvmsg:
# Connection reset by peer"): that is Wine failing, not the program, so it gets one more run.
if ! run_host "$@"; then
  grep -q '^wine client error' "$work/host.err" && echo "note: Wine itself failed; running $2 once more" &&
    run_host "$@" || { echo "FAIL: $2 exits with $status"; exit 1; }
fi
tr -d '\r' <"$work/host.crlf" >"$work/host"
if ! cmp -s "$work/native" "$work/host"; then
  echo "FAIL: $2 prints other output than $1:"; diff "$work/native" "$work/host" | head -n 20; exit 1
fi
echo "ok: $(wc -l <"$work/host") lines, the same on both machines"
