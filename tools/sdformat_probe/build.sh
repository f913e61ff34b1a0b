#!/usr/bin/env bash
# Build the libsdformat 12 reference probe when its source is newer than the
# binary, then print the binary's path on stdout.
#
# Needs: g++ (C++17), pkg-config, and Debian's libsdformat-dev (pkg-config
# name sdformat12) with libtinyxml2-dev. Exits 1 with a message on stderr
# when any of them is missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
src="$here/sdformat_probe.cc"
bin="$repo/.cache/sdformat_probe/sdformat_probe"

if [[ -x "$bin" && "$bin" -nt "$src" && "$bin" -nt "${BASH_SOURCE[0]}" ]]; then
  echo "$bin"
  exit 0
fi

# shellcheck source=../cxx_build.sh
source "$here/../cxx_build.sh"
cxx_build "$src" "$bin" "libsdformat-dev libtinyxml2-dev" sdformat12 tinyxml2
echo "$bin"
