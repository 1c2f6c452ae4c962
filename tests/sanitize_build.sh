# Sourced by tests/run (--sanitize) and tests/fuzz/run: the one ASan+UBSan
# build both use, with clang (libFuzzer needs it) in build/sanitize. Only
# this CPU's best Highway target (the release build covers every target);
# -O1 with line tables only, quick to compile with traces that keep
# file:line. It compiles the library (coverage-instrumented for the
# fuzzers), every test and fuzzer with -Werror, which is also CI's clang
# -Werror check. Not the benchmarks (about a minute of CI's 40; bench/run
# compiles them).
# Needs $root.
sanitize_build=$root/build/sanitize
sanitize_packages=(clang libclang-rt-14-dev)
sanitize_args=("-Dcpp_args=-DHWY_COMPILE_ONLY_STATIC -march=native -gline-tables-only"
               -Dfuzz=enabled -Dtests=enabled -Dbench=disabled -Dwerror=true
               -Ddefault_library=both -Db_sanitize=address,undefined -Db_lundef=false
               -Dbuildtype=plain -Doptimization=1 --wrap-mode=nodownload)

# Configures (or reconfigures) build/sanitize with clang.
sanitize_setup() {
  if [ -f "$sanitize_build/build.ninja" ]; then
    meson setup --reconfigure "$sanitize_build" "$root" "${sanitize_args[@]}" >/dev/null
  else
    local wrap=
    command -v ccache >/dev/null && wrap='ccache '  # a developer's machine
    CC="${wrap}clang" CXX="${wrap}clang++" meson setup "$sanitize_build" "$root" "${sanitize_args[@]}" >/dev/null
  fi
}
