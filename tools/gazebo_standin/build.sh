#!/usr/bin/env bash
# Build the Gazebo stand-in (gazebo_standin.cc) when its source is newer than
# the binary, then print the binary's path on stdout.
#
# Also writes .cache/gazebo_standin/ign_config/, an IGN_CONFIG_PATH folder
# that makes Debian 12's `ign service` / `ign topic` work: the package
# ignition-transport-cli installs their helper binaries under
# /usr/libexec/ignition/transport11/ while its ruby front-end
# (/usr/lib/ruby/ignition/cmdtransport11.rb) looks for them under
# /usr/lib/x86_64-linux-gnu/. Use it with
#   IGN_CONFIG_PATH=/usr/share/ignition:$repo/.cache/gazebo_standin/ign_config
# (the later folder wins for the transport commands).
#
# Needs: g++ (C++17), pkg-config, and Debian's libignition-transport-dev (11),
# libignition-msgs-dev (8) and libsdformat-dev (12). Exits 1 with a message on
# stderr when any of them is missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
src="$here/gazebo_standin.cc"
out_dir="$repo/.cache/gazebo_standin"
bin="$out_dir/gazebo_standin"
pkgs=(ignition-transport11 ignition-msgs8 sdformat12)

write_ign_config() {
  local conf="$out_dir/ign_config" libexec=/usr/libexec/ignition/transport11
  [[ -f "$conf/transport11.yaml" && "$conf/transport11.yaml" -nt "${BASH_SOURCE[0]}" ]] && return 0
  mkdir -p "$conf"
  cat >"$conf/cmdtransport11_libexec.rb" <<RUBY
# Written by tools/gazebo_standin/build.sh: run the ign-transport helper
# binaries from where Debian installs them ($libexec).
class Cmd
  def execute(args)
    exec(File.join('$libexec', "ign-transport-#{args[0]}"), *args[1..-1])
  end
end
RUBY
  cat >"$conf/transport11.yaml.tmp" <<YAML
--- # ign service / ign topic, through cmdtransport11_libexec.rb
format: 1.0.0
library_name: ignition-transport
library_version: 11.0.0
library_path: $conf/cmdtransport11_libexec
commands:
    - topic   : Print information about topics.
    - service : Print information about services.
---
YAML
  mv -f "$conf/transport11.yaml.tmp" "$conf/transport11.yaml"
}

if [[ -x "$bin" && "$bin" -nt "$src" && "$bin" -nt "${BASH_SOURCE[0]}" ]]; then
  write_ign_config
  echo "$bin"
  exit 0
fi

# shellcheck source=../cxx_build.sh
source "$here/../cxx_build.sh"
cxx_build "$src" "$bin" "libignition-transport-dev libignition-msgs-dev libsdformat-dev" "${pkgs[@]}"
write_ign_config
echo "$bin"
