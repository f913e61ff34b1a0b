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
out_dir="$repo/.cache/sdformat_probe"
bin="$out_dir/sdformat_probe"

if [[ -x "$bin" && "$bin" -nt "$src" && "$bin" -nt "${BASH_SOURCE[0]}" ]]; then
  echo "$bin"
  exit 0
fi

for tool in g++ pkg-config; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "build.sh: '$tool' not found (apt-get install g++ pkg-config)" >&2
    exit 1
  fi
done
if ! pkg-config --exists sdformat12 tinyxml2; then
  echo "build.sh: pkg-config cannot find sdformat12/tinyxml2" \
       "(apt-get install libsdformat-dev libtinyxml2-dev)" >&2
  exit 1
fi

mkdir -p "$out_dir"
# Compile to a private temporary name, then rename: concurrent builds (e.g.
# parallel test workers) never see a half-written binary.
tmp="$(mktemp "$out_dir/.sdformat_probe.XXXXXX")"
trap 'rm -f "$tmp"' EXIT
# shellcheck disable=SC2046  # pkg-config output is meant to be word-split
g++ -std=c++17 -O1 -Wall -Wextra -o "$tmp" "$src" \
  $(pkg-config --cflags --libs sdformat12 tinyxml2)
chmod 755 "$tmp"
mv -f "$tmp" "$bin"
trap - EXIT
echo "$bin"
