#!/usr/bin/env bash
# Runs every fuzz target for the given number of seconds (default 60) on the nightly
# toolchain, starting from the committed seed corpora, and fails on the first crash
# (panic, sanitizer error, timeout of one input, or out-of-memory). libFuzzer's random seed
# is FUZZ_SEED (default 1), so a failing CI run can be replayed exactly.
# Usage: fuzz/run.sh [seconds] [target ...]
# CARGO_TARGET_DIR, when set, is used as the build directory (default fuzz/target).
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-60}
shift || true
case $secs in
  '' | *[!0-9]*) echo "usage: fuzz/run.sh [seconds] [target ...]" >&2; exit 2 ;;
esac
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
dir=()
[ -n "${CARGO_TARGET_DIR:-}" ] && dir=(--target-dir "$CARGO_TARGET_DIR")
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
# Each target is built just before it runs: a run of some targets builds only those.
work=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$work" "$log"' EXIT
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  cargo +nightly fuzz build "${dir[@]}" "$t"
  echo "== $t for ${secs}s"
  # A private working corpus, so a run does not add thousands of files to the repository's.
  rm -rf "${work:?}/$t"
  mkdir -p "$work/$t"
  status=0
  cargo +nightly fuzz run "${dir[@]}" "$t" "$work/$t" "corpus/$t" -- \
    -max_total_time="$secs" -max_len=4096 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
    -timeout=30 -seed="${FUZZ_SEED:-1}" -print_final_stats=1 >"$log" 2>&1 || status=$?
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec)|SUMMARY|panicked' "$log" || true
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$log"
    echo "fuzz target $t FAILED (artifacts in fuzz/artifacts/$t)"
    exit 1
  fi
done
echo "all fuzz targets ran ${secs}s without a crash"
