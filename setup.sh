#!/usr/bin/env bash
# Installs what is missing (Debian packages only), then configures and builds
# outbox-check into ./build. Safe to run again: it installs nothing that is
# already there and rebuilds only what changed.
#
#   ./setup.sh            what checking scenarios needs, then the build,
#                         compiled with the profile of an instrumented
#                         build (./build-profile) searching the benchmarks
#   ./setup.sh --tests    also the tools the tests use, the sanitizer and
#                         fuzzing build (./build-sanitize, clang), and then
#                         runs every test: the suite in ./build, and the
#                         unit tests, bundled scenarios and fuzz targets
#                         under ASan and UBSan in ./build-sanitize
set -euo pipefail
cd "$(dirname "$0")"

tests=false
case "${1:-}" in
  "") ;;
  --tests) tests=true ;;
  *) echo "usage: ./setup.sh [--tests]" >&2; exit 2 ;;
esac

packages=(
  g++ cmake ninja-build libboost1.81-dev libfmt-dev doctest-dev libcli11-dev
  libtomlplusplus-dev libpq-dev openmpi-bin libopenmpi-dev
)
if $tests; then
  packages+=(clang-format python3 chromium spin postgresql clang-14
    libclang-rt-14-dev python3-jsonschema python3-yaml dpkg-dev file)
  # npm fetches the SARIF schema the tests validate against; a Node.js
  # that brings its own npm is left alone.
  command -v npm >/dev/null || packages+=(npm)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if $tests; then
  # The tests' build, without profile feedback: it would add four minutes
  # to every CI run and changes only how fast a search runs.
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DOC_PROFILE_USE= >/dev/null
else
  # Profile feedback (docs/PERFORMANCE.md): an instrumented build in
  # ./build-profile searches benchmarks on one thread and writes how often
  # each branch and call ran; ./build is compiled with those counts.
  counts=$PWD/build-profile/counts
  cmake -S . -B build-profile -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DOC_PROFILE_GENERATE="$counts" >/dev/null
  cmake --build build-profile --target outbox-check
  rm -rf "$counts"
  echo "setup: searching the benchmarks to take the profile"
  # (The files first: --symmetry would take them as more settings.)
  settings=(--threads 1 --symmetry "off,on")
  build-profile/outbox-check bench \
    scenarios/bench/{2-medium,3-large,7-mixed-faults}.toml \
    "${settings[@]}" >/dev/null
  # The larger ones as far as 400,000 states, which meets their hot
  # paths (a search stopped by the limit exits with 3).
  build-profile/outbox-check bench \
    scenarios/bench/{6-accounts,8-unbounded,9-partitioned}.toml \
    "${settings[@]}" --max-states 400000 >/dev/null || [ $? -eq 3 ]
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DOC_PROFILE_USE="$counts" >/dev/null
fi
cmake --build build
$tests || exit 0

cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++-14 -DOC_SANITIZE=ON -DOC_FUZZ=ON >/dev/null
cmake --build build-sanitize

status=0
ctest --test-dir build -j2 --output-on-failure || status=1
# Under the sanitizers, the fast tests: the slow ones (symmetry brute
# forces, long searches) run above, without them, where they take a tenth
# of the time (docs/TESTING.md).
ASAN_OPTIONS=halt_on_error=1:detect_leaks=1 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build-sanitize -L 'unit|cli|fuzz' -LE 'mpi|slow' -j2 --output-on-failure || status=1
exit "$status"
