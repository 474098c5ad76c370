#!/usr/bin/env bash
# Builds the tutorial game as a newcomer would, from docs/adding-a-game.md alone: a crate
# of its own OUTSIDE the workspace, whose Cargo.toml is the tutorial's (the block between
# the `newcomer:Cargo.toml` markers, with the tutorial's checkout path replaced by this
# checkout) and whose sources are the tutorial's files (examples/connect-four/src); then
# runs the tutorial's commands on it and checks their output.
#
# Usage: examples/connect-four/newcomer.sh
# Environment: CARGO_TARGET_DIR (default: <checkout>/target/newcomer, kept between runs so
# a second run only rebuilds the crate); CARGO_NET_OFFLINE is honoured by cargo itself.
set -euo pipefail

checkout="$(cd "$(dirname "$0")/../.." && pwd)"
doc="$checkout/docs/adding-a-game.md"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$checkout/target/newcomer}"
crate="$(mktemp -d)"
trap 'rm -rf "$crate"' EXIT

fail() {
  echo "newcomer: $*" >&2
  exit 1
}

# The tutorial's Cargo.toml, exactly as written, with its placeholder path made real.
toml="$(awk '/<!-- newcomer:Cargo.toml -->/{on=1; next} /<!-- \/newcomer:Cargo.toml -->/{on=0} on' "$doc" |
  sed '/^```/d')"
[ -n "$toml" ] || fail "no newcomer:Cargo.toml block in $doc"
grep -q '/path/to/boardlab' <<<"$toml" || fail "the tutorial's Cargo.toml names no /path/to/boardlab"
sed "s|/path/to/boardlab|$checkout|g" <<<"$toml" >"$crate/Cargo.toml"
cp -r "$checkout/examples/connect-four/src" "$crate/src"
# The workspace's lock file pins the versions the workspace is tested with; cargo drops
# what the crate does not use.
cp "$checkout/Cargo.lock" "$crate/Cargo.lock"
cd "$crate"

# A designer's crate builds without the web stack.
if cargo tree -e normal | grep -E 'axum|tokio'; then
  fail "the tutorial crate depends on axum or tokio"
fi
cargo build --quiet
bin="$CARGO_TARGET_DIR/debug/connect-four"

expect() { # expect WHAT EXPECTED ACTUAL
  [ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"
}
expect "perft connect4 4" 2401 "$("$bin" perft connect4 4 2>/dev/null)"
expect "perft connect4:k=3 3" 343 "$("$bin" perft connect4:k=3 3 2>/dev/null)"
shown="$("$bin" show connect4 --moves "d1 e1 d2 e2 d3 e3 d4")"
grep -qx 'result: First wins' <<<"$shown" || fail "show: $shown"
grep -qx 'position: 7/7/3X3/3XO2/3XO2/3XO2 second 7' <<<"$shown" || fail "show: $shown"
# `quit` stops a search at once: give it the time to finish first.
best="$({ printf 'ugi\nposition connect4 startpos moves d1 e1 d2 e2 d3 e3\ngo depth 4\n'; sleep 2; echo quit; } |
  "$bin" engine | grep '^bestmove')"
expect "engine bestmove" "bestmove d4" "$best"
analyzed="$("$bin" analyze connect4 --depth 4 --moves "d1 e1 d2 e2 d3 e3" | tail -n 1)"
expect "analyze" "bestmove d4" "$analyzed"
swept="$("$bin" selfplay connect4 --games 4 --depth 1 --sweep k=3,4 --json)"
grep -q 'connect4:k=3' <<<"$swept" || fail "selfplay --sweep: $swept"
played="$(printf 'd1\ne1\nd2\ne2\nd3\ne3\nd4\n' | "$bin" play connect4 --human both --no-color)"
grep -q 'Game over: First wins.' <<<"$played" || fail "play: $played"
unknown="$("$bin" perft chess 1 2>&1 || true)"
grep -q 'connect4' <<<"$unknown" || fail "an unknown game lists connect4: $unknown"
if "$bin" web --help >/dev/null 2>&1; then
  fail "web exists without the web feature"
fi
echo "newcomer: the tutorial crate builds outside the workspace and its commands work"
