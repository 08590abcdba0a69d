#!/bin/sh
# `npm test` runs this first (the `pretest` script): the suite needs a few Debian packages beyond npm.
#   chromium           the HTML report in a real browser (test/report-html-in-browser.test.ts)
#   redis-server       real Redis servers started by the fleet tests
#   clickhouse-server  a real ClickHouse server started by the analytics tests
# Each package is looked for by its binary on PATH, or in /usr/sbin and /sbin (where Debian puts
# clickhouse-server, and which a normal user's PATH often lacks; tests look there too). Missing ones are installed with apt-get when this
# runs as root (or with passwordless sudo) on a machine that has apt-get; otherwise, or when the
# install fails, it stops with exit 1 and one line naming the packages and the command to install
# them. It never skips a test silently. A package is added here by adding a "package:binary" pair.
set -u
# The folders searched beside PATH (a test points this elsewhere).
SBIN_DIRS=${TEST_SETUP_SBIN_DIRS-/usr/sbin /sbin}

REQUIRED="chromium:chromium redis-server:redis-server clickhouse-server:clickhouse-server|clickhouse"

missing=""
for entry in $REQUIRED; do
  package=${entry%%:*}
  binaries=${entry#*:}
  found=""
  for binary in $(printf '%s' "$binaries" | tr '|' ' '); do
    if command -v "$binary" >/dev/null 2>&1; then found=yes; break; fi
    for dir in $SBIN_DIRS; do
      if [ -x "$dir/$binary" ]; then found=yes; break 2; fi
    done
  done
  [ -n "$found" ] || missing="$missing $package"
done
missing=${missing# }
[ -z "$missing" ] && exit 0

install_command="apt-get install -y --no-install-recommends $missing"
stop() {
  echo "test setup: missing Debian package(s) $missing ($1): install with: sudo $install_command" >&2
  exit 1
}
apt_log=${TMPDIR:-/tmp}/recipe-gateway-test-setup.log

command -v apt-get >/dev/null 2>&1 || stop "no apt-get on this machine"
if [ "$(id -u)" = 0 ]; then
  as_root=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
  as_root="sudo -n"
else
  stop "not root, and no passwordless sudo"
fi

echo "test setup: installing $missing with apt-get" >&2
# The package lists are refreshed only when the first try fails (a fresh image often has none).
# shellcheck disable=SC2086
if ! $as_root env DEBIAN_FRONTEND=noninteractive $install_command >"$apt_log" 2>&1; then
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get update >>"$apt_log" 2>&1
  $as_root env DEBIAN_FRONTEND=noninteractive $install_command >>"$apt_log" 2>&1 || stop "apt-get install failed, its output is in $apt_log"
fi
echo "test setup: installed $missing" >&2
