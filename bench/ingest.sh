#!/usr/bin/env bash
# Ingest throughput and peak memory of `revsum ingest`, with sqlite3's own CSV `.import` of the same
# Chinese CSV measured in the same run as the reference.
#
#   bench/ingest.sh [BUILD_DIR] [N_ENGLISH]      (defaults: build, 1000000)
#
# Prints one table: reviews/s, MB/s, peak RSS, CPU seconds (user + system, all threads), MB written
# to disk (GNU time's file system outputs x 512 bytes), and the records/s ratio to sqlite3 .import.
# On a shared machine wall time swings with other people's load; CPU seconds and MB written much
# less, so compare those too (and alternate before/after runs).
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

# measure NAME RECORDS FILE -- command...: wall seconds, peak RSS (kB), CPU seconds and file system
# output blocks via GNU time.
measure() {
  local name=$1 records=$2 file=$3; shift 4
  local t0 t1
  t0=$(date +%s.%N)
  /usr/bin/time -f "%M %U %S %O" -o "$work/rss" "$@" >/dev/null 2>"$work/err" || {
    rc=$?; [ $rc -eq 3 ] || { cat "$work/err" >&2; exit $rc; }; }
  t1=$(date +%s.%N)
  local secs rss cpu out mb
  secs=$(echo "$t1 - $t0" | bc -l)
  read -r rss user sys out < <(tail -n 1 "$work/rss")
  cpu=$(echo "$user + $sys" | bc -l)
  mb=$(stat -c %s "$file")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$records" "$mb" "$secs" "$rss" "$cpu" "$out" \
    >> "$work/results"
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
print(f"{'what':28} {'records':>9} {'MB':>7} {'sec':>7} {'rec/s':>9} {'MB/s':>7} {'peak RSS MB':>11} "
      f"{'CPU s':>7} {'MB written':>10} {'rec/s vs .import':>16}")
for name, rec, size, secs, rss, cpu, out in rows:
    rec, size, secs, rss, cpu, out = int(rec), int(size), float(secs), int(rss), float(cpu), int(out)
    rps = rec / secs
    print(f"{name:28} {rec:>9} {size/1e6:>7.1f} {secs:>7.2f} {rps:>9.0f} {size/1e6/secs:>7.1f} {rss/1024:>11.1f} "
          f"{cpu:>7.2f} {out*512/1e6:>10.1f} {rps/ref_rps:>15.3f}x")
PY
