#!/usr/bin/env bash
# Two revsum binaries' `ingest`, alternated round by round so that a busy machine's drift hits both
# alike, with sqlite3's own `.import` of the Chinese CSV measured in every round as the reference
# (as in bench/ingest.sh). Inputs: a generated English JSONL of N_EN reviews
# (bench/gen_reviews.py) and the 62,774-row Chinese shopping CSV from ../shared.
#   bench/compare_ingest.sh BEFORE AFTER [N_EN=1000000] [ROUNDS=3]
# Prints every run (wall, CPU = user + system, peak RSS), then per input the medians and
# AFTER / BEFORE for wall and CPU, and each binary's median records/s relative to `.import` in the
# same round. Copied binaries find their models with REVSUM_MODELS_DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: bench/compare_ingest.sh BEFORE AFTER [N_EN] [ROUNDS]"
before=${1:?$usage}
after=${2:?$usage}
n_en=${3:-1000000}
rounds=${4:-3}
csv=${REVSUM_SHARED:-$here/../shared}/data/zh/online_shopping_10_cats.csv
[ -f "$csv" ] || { echo "compare_ingest.sh: $csv not found (set REVSUM_SHARED)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/bench/gen_reviews.py" "$n_en" "$work/en.jsonl"

# run NAME INPUT -- command...: appends "NAME INPUT ROUND wall cpu rss_kB" to $work/runs.
run() {
  local name=$1 input=$2; shift 3
  rm -f "$work"/s.db*
  # Exit code 3: some records were rejected (the Chinese CSV has one), the rest stored.
  /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$@" > /dev/null 2> "$work/err" || {
    rc=$?; [ $rc -eq 3 ] || { cat "$work/err" >&2; exit $rc; }; }
  tail -n 1 "$work/t" > "$work/t1"
  mv "$work/t1" "$work/t"
  read -r wall user sys rss < "$work/t"
  echo "$name $input $round $wall $(echo "$user + $sys" | bc -l) $rss" | tee -a "$work/runs"
}

for round in $(seq "$rounds"); do
  run import zh -- sqlite3 "$work/s.db" ".mode csv" ".import '$csv' reviews"
  for which in before after; do
    bin=$before
    [ "$which" = after ] && bin=$after
    run "$which" en -- "$bin" ingest "$work/en.jsonl" --db "$work/s.db" --quiet
    run "$which" zh -- "$bin" ingest "$csv" --product-field cat --db "$work/s.db" --quiet
  done
done
python3 - "$work/runs" "$n_en" <<'PY'
import statistics, sys
records = {"en": int(sys.argv[2]), "zh": 62774}
runs = [line.split() for line in open(sys.argv[1])]
imports = {r[2]: float(r[3]) for r in runs if r[0] == "import"}
def med(which, inp, col):
    return statistics.median(float(r[col]) for r in runs if r[0] == which and r[1] == inp)
def vs_import(which, inp):  # records/s over .import's records/s in the same round
    return statistics.median((records[inp] / float(r[3])) / (records["zh"] / imports[r[2]])
                             for r in runs if r[0] == which and r[1] == inp)
for inp in ("en", "zh"):
    for which in ("before", "after"):
        print(f"{inp} median {which:6s} {med(which, inp, 3):8.2f} s wall {med(which, inp, 4):8.2f} s CPU"
              f"  {vs_import(which, inp):.4f}x .import")
    print(f"{inp} after / before: wall {med('after', inp, 3) / med('before', inp, 3):.3f}, "
          f"CPU {med('after', inp, 4) / med('before', inp, 4):.3f}; speed-up "
          f"{med('before', inp, 3) / med('after', inp, 3):.2f}x wall")
PY
