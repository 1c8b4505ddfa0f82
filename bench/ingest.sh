#!/usr/bin/env bash
# Ingest throughput and peak memory of `revsum ingest`, with sqlite3's own CSV `.import` of the same
# Chinese CSV measured in the same run as the reference.
#
#   bench/ingest.sh [BUILD_DIR] [N_ENGLISH]      (defaults: build, 1000000)
#
# Prints one table: reviews/s, MB/s, peak RSS, and each figure's ratio to sqlite3 .import.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
n_en=${2:-1000000}
shared=${REVSUM_SHARED:-$here/../shared}
csv=$shared/data/zh/online_shopping_10_cats.csv
[ -f "$csv" ] || { echo "ingest.sh: $csv not found (set REVSUM_SHARED)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

en=$work/en_reviews.jsonl
python3 "$here/bench/gen_reviews.py" "$n_en" "$en"

# measure NAME RECORDS FILE -- command...: wall seconds and peak RSS (kB) via GNU time.
measure() {
  local name=$1 records=$2 file=$3; shift 4
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f "%M" -o "$work/rss" "$@" >/dev/null 2>"$work/err" || {
    rc=$?; [ $rc -eq 3 ] || { cat "$work/err" >&2; exit $rc; }; }
  t1=$(date +%s.%N)
  local secs rss mb
  secs=$(echo "$t1 - $t0" | bc -l)
  rss=$(tail -n 1 "$work/rss")
  mb=$(stat -c %s "$file")
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$records" "$mb" "$secs" "$rss" >> "$work/results"
}

: > "$work/results"
measure "sqlite3 .import (zh csv)" 62774 "$csv" -- \
  sqlite3 "$work/import.db" ".mode csv" ".import '$csv' reviews"
measure "revsum ingest (zh csv)" 62774 "$csv" -- \
  "$build/revsum" ingest "$csv" --product-field cat --db "$work/zh.db" --quiet
measure "revsum ingest (en jsonl)" "$n_en" "$en" -- \
  "$build/revsum" ingest "$en" --db "$work/en.db" --quiet

python3 - "$work/results" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
ref = rows[0]
ref_rps = int(ref[1]) / float(ref[3])
ref_mbs = int(ref[2]) / 1e6 / float(ref[3])
print(f"{'what':28} {'records':>9} {'MB':>7} {'sec':>7} {'rec/s':>9} {'MB/s':>7} {'peak RSS MB':>11} {'rec/s vs .import':>16}")
for name, rec, size, secs, rss in rows:
    rec, size, secs, rss = int(rec), int(size), float(secs), int(rss)
    rps = rec / secs
    print(f"{name:28} {rec:>9} {size/1e6:>7.1f} {secs:>7.2f} {rps:>9.0f} {size/1e6/secs:>7.1f} {rss/1024:>11.1f} {rps/ref_rps:>15.3f}x")
PY
