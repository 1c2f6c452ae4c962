# Sourced by tests/run, bench/run and .ci/run: installs the Debian packages
# the build needs when they are missing (apt-get when root; otherwise prints
# the exact command and stops).
stridekit_base_packages=(
  meson ninja-build pkg-config cmake g++ clang
  libhwy-dev libgtest-dev libgmock-dev libbenchmark-dev libdlpack-dev
  libpthreadpool-dev
  python3 python3-numpy
)
# The other stages' packages (tests/run's Python package, docs/run,
# tests/cross/run with Debian's arm64 architecture); .ci/run installs every
# list at once, before the first stage.
stridekit_python_packages=(python3-venv python3-mesonpy python3-pytest python3-dev)
stridekit_docs_packages=(doxygen python3)
stridekit_cross_packages=(g++-aarch64-linux-gnu qemu-user libhwy-dev:arm64 libgtest-dev:arm64
                          libgmock-dev:arm64 meson ninja-build pkg-config)

# Debian's arm64 architecture, which stridekit_cross_packages need (when root;
# otherwise ensure_packages reports what is missing).
add_arm64_architecture() {
  [ "$(id -u)" -eq 0 ] || return 0
  dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
}

ensure_packages() {
  local missing=()
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "stridekit: missing packages; run as root:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    return 1
  fi
  echo "stridekit: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null &&
    apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
}
