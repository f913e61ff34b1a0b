# Sourced by tools/*/build.sh: build one C++17 file against pkg-config packages.

# cxx_build SRC BIN APT_HINT PKG...
# Checks g++, pkg-config and the packages (APT_HINT names the Debian packages to install when
# they are missing), then compiles SRC into BIN. The compiler writes a private temporary file
# that is renamed into place, so concurrent builds (parallel test workers) never see a
# half-written binary. Exits 1 with a message on stderr when something is missing.
cxx_build() {
  local src="$1" bin="$2" hint="$3" tool
  shift 3
  for tool in g++ pkg-config; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      echo "build.sh: '$tool' not found (apt-get install g++ pkg-config)" >&2
      exit 1
    fi
  done
  if ! pkg-config --exists "$@"; then
    echo "build.sh: pkg-config cannot find $* (apt-get install $hint)" >&2
    exit 1
  fi
  mkdir -p "$(dirname "$bin")"
  # A global, not a local: the EXIT trap may run after this function has returned.
  cxx_build_tmp="$(mktemp "$(dirname "$bin")/.$(basename "$bin").XXXXXX")"
  trap 'rm -f "$cxx_build_tmp"' EXIT
  # shellcheck disable=SC2046  # pkg-config output is meant to be word-split
  g++ -std=c++17 -O1 -Wall -Wextra -o "$cxx_build_tmp" "$src" $(pkg-config --cflags --libs "$@") \
    -pthread
  chmod 755 "$cxx_build_tmp"
  mv -f "$cxx_build_tmp" "$bin"
  trap - EXIT
}
