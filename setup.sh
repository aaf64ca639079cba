#!/usr/bin/env bash
# Installs what is missing (Debian packages only), then configures and builds
# outbox-check into ./build. Safe to run again: it installs nothing that is
# already there and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")"

packages=(
  g++ cmake ninja-build clang-format python3 chromium spin postgresql
  libboost1.81-dev libfmt-dev doctest-dev libcli11-dev libtomlplusplus-dev
  libpq-dev
)
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

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build
