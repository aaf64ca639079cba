#!/usr/bin/env bash
# memory_limit_holds.sh OUTBOX_CHECK WIDE_SCENARIO: a search of a wide
# scenario under --max-memory stops at the memory limit, and the process's
# peak resident memory (bench's figure) grows by no more than the limit
# plus a quarter (what the allocator keeps of freed buffers) over that of
# a search too small to reach it.
set -u
bin=$1 wide=$2
limit_mib=48
peak() {
  "$bin" bench "$@" --json --threads 2 --symmetry off \
    --max-memory ${limit_mib}MiB |
    sed -n 's/.*"peak_resident_bytes": \([0-9]*\).*/\1/p'
}
small=$(peak scenarios/seed/lease-expiry-after-send.toml)
out=$("$bin" bench "$wide" --json --threads 2 --symmetry off \
  --max-memory ${limit_mib}MiB)
code=$?
if [ "$code" -ne 3 ] || ! grep -q '"complete": false' <<<"$out"; then
  printf 'expected a search stopped by the limit (exit 3), got %s:\n%s\n' \
    "$code" "$out"
  exit 1
fi
wide_peak=$(sed -n 's/.*"peak_resident_bytes": \([0-9]*\).*/\1/p' <<<"$out")
if [ -z "$small" ] || [ -z "$wide_peak" ]; then
  echo "no peak_resident_bytes in bench's output: $out"
  exit 1
fi
grown=$((wide_peak - small))
allowed=$((limit_mib * 1024 * 1024 * 5 / 4))
echo "peak grew by $((grown >> 20)) MiB for a limit of $limit_mib MiB"
if [ "$grown" -gt "$allowed" ]; then
  echo "over the allowed $((allowed >> 20)) MiB"
  exit 1
fi
