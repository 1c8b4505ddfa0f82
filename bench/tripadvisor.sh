#!/usr/bin/env bash
# Real text, end to end: the TripAdvisor hotel dump of ../shared (195,757 reviews of 1,842 hotels,
# about 11 sentences a review), or its first N reviews, through each stage on its own, with wall
# time, CPU time (user + sys), peak RSS and sentences per second of each:
#   ingest                   revsum ingest --product-field hotel_id
#   train                    revsum train (the store's own opinion model, from its ratings)
#   summarize (default)      USE-lite + the learned opinions, --threads T
#   summarize (lexical)      --embedder lexical, on a copy of the ingested store
# CPU time survives a busier machine better than wall time; compare runs on the same machine.
#   bench/tripadvisor.sh BUILD_DIR [N=10000|all] [THREADS=2]
set -euo pipefail
build=${1:?usage: bench/tripadvisor.sh BUILD_DIR [N|all] [THREADS]}
n=${2:-10000}
threads=${3:-2}
here=$(cd "$(dirname "$0")/.." && pwd)
revsum=$(realpath "$build/revsum")
dump="$here/../shared/data/train/en/tripadvisor_hotels.jsonl.gz"
[ -f "$dump" ] || { echo "bench/tripadvisor.sh: $dump not found" >&2; exit 1; }
work=$(mktemp -d /tmp/revsum-tripadvisor.XXXXXX)
trap 'rm -rf "$work"' EXIT

if [ "$n" = all ]; then
  input=$dump
else
  { zcat "$dump" || true; } | head -n "$n" >"$work/hotels.jsonl"
  input=$work/hotels.jsonl
fi

measure() {  # COMMAND...: runs it, leaving "wall user sys rss_kb" in $work/time
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >/dev/null 2>"$work/err" || {
    cat "$work/err" >&2
    exit 1
  }
}
row() {  # LABEL: one row "| label | wall | cpu | rss | sentences/s |" of the last measure
  read -r wall user sys rss <"$work/time"
  printf '| %s | %.1f s | %.1f s | %d MB | %s |\n' "$1" "$wall" "$(echo "$user + $sys" | bc)" \
    $((rss / 1024)) "$(echo "scale=0; $sentences / $wall" | bc 2>/dev/null || echo -)"
}
stage() {  # LABEL COMMAND...
  local label=$1
  shift
  measure "$@"
  row "$label"
}

echo "bench/tripadvisor.sh: $n reviews, --threads $threads, $(nproc) CPUs"
echo "| stage | wall | CPU | peak RSS | sentences/s |"
echo "|---|---:|---:|---:|---:|"
measure "$revsum" ingest -q "$input" --product-field hotel_id --db "$work/a.db"
sentences=$(sqlite3 "$work/a.db" "SELECT count(*) FROM sentences")
row ingest
cp "$work/a.db" "$work/b.db"
stage train "$revsum" train --db "$work/a.db"
stage "summarize (default)" "$revsum" summarize -q --threads "$threads" --db "$work/a.db"
stage "summarize (lexical)" "$revsum" summarize -q --embedder lexical --threads "$threads" \
  --db "$work/b.db"
echo "($sentences sentences, $(sqlite3 "$work/a.db" "SELECT count(*) FROM products") hotels)"
