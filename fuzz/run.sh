#!/usr/bin/env bash
# Runs every fuzz target for the given number of seconds (default 60) on the nightly
# toolchain, starting from the committed seed corpora, and fails on the first crash.
# Usage: fuzz/run.sh [seconds] [target ...]
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-60}
shift || true
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo +nightly fuzz list)
fi
cargo +nightly fuzz build
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  echo "== $t for ${secs}s"
  # A private working corpus, so a run does not add thousands of files to the repository's.
  work=$(mktemp -d)
  log=$(mktemp)
  status=0
  cargo +nightly fuzz run "$t" "$work" "corpus/$t" -- \
    -max_total_time="$secs" -max_len=4096 -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
    >"$log" 2>&1 || status=$?
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec)|SUMMARY|panicked' "$log" || true
  [ "$status" -eq 0 ] || tail -n 40 "$log"
  rm -f "$log"
  rm -rf "$work"
  if [ "$status" -ne 0 ]; then
    echo "fuzz target $t FAILED (artifacts in fuzz/artifacts/$t)"
    exit 1
  fi
done
echo "all fuzz targets ran ${secs}s without a crash"
