#!/usr/bin/env bash
# Summarise throughput with 1 and 2 threads, and the cost of an incremental re-run, measured in
# the same run on the same store (issue 10):
#   1. N generated reviews (bench/gen_reviews.py: N/4 products) ingested once;
#   2. `summarize` from scratch with --threads 1 and --threads 2 on two copies of that store
#      (wall and CPU seconds, and the two stores' exports compared byte for byte);
#   3. a new dump of N/100 reviews touching 1 % of the products, ingested into the 2-thread store,
#      then `summarize` again with the same parameters: only those products are re-scored.
#   bench/summarize_scale.sh BUILD_DIR [N=200000] [EMBEDDER=lexical]
# Every summarize uses the default opinion model (--opinions default): the generated ratings are
# noise, so a store model trained on them is kept or refused by a hair (49.1 % against the default's
# 49.2 % held out on 20,000 reviews), and one kept after the new reviews changes every run key and
# re-scores every product, which is not what this measures.
set -euo pipefail
build=${1:?usage: bench/summarize_scale.sh BUILD_DIR [N] [EMBEDDER]}
n=${2:-200000}
embedder=${3:-lexical}
here=$(cd "$(dirname "$0")" && pwd)
revsum="$build/revsum"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 "$here/gen_reviews.py" "$n" "$work/base.jsonl" > /dev/null
"$revsum" ingest -q "$work/base.jsonl" --db "$work/one.db" > /dev/null
cp "$work/one.db" "$work/two.db"
products=$(sqlite3 "$work/one.db" "SELECT count(*) FROM products")

timed() {  # label, command...: prints "label wall user+sys"
  local label=$1
  shift
  /usr/bin/time -f "%e %U %S" -o "$work/t" "$@" > /dev/null 2> "$work/err" || {
    cat "$work/err" >&2
    exit 1
  }
  read -r wall user sys < "$work/t"
  echo "$label $wall $(echo "$user + $sys" | bc)"
}

read -r _ wall1 cpu1 < <(timed one "$revsum" summarize -q --opinions default --embedder "$embedder" --threads 1 --db "$work/one.db")
read -r _ wall2 cpu2 < <(timed two "$revsum" summarize -q --opinions default --embedder "$embedder" --threads 2 --db "$work/two.db")
"$revsum" export --no-tokens --format jsonl --db "$work/one.db" > "$work/one.jsonl"
"$revsum" export --no-tokens --format jsonl --db "$work/two.db" > "$work/two.jsonl"
same=no
cmp -s "$work/one.jsonl" "$work/two.jsonl" && same=yes

# New reviews for 1 % of the products (every 100th product key), N/100 of them.
sqlite3 "$work/two.db" "SELECT key FROM products WHERE id % 100 = 0" > "$work/touched.txt"
python3 "$here/gen_reviews.py" $((n / 100)) "$work/new_raw.jsonl" --seed 7 > /dev/null
python3 - "$work/new_raw.jsonl" "$work/touched.txt" "$work/new.jsonl" <<'PY'
import json, sys
keys = [k.strip() for k in open(sys.argv[2]) if k.strip()]
with open(sys.argv[1]) as src, open(sys.argv[3], "w") as out:
    for i, line in enumerate(src):
        d = json.loads(line)
        d["asin"] = d["parent_asin"] = keys[i % len(keys)]
        d["user_id"] = "NEW" + d["user_id"]
        out.write(json.dumps(d) + "\n")
PY
"$revsum" ingest -q "$work/new.jsonl" --db "$work/two.db" > /dev/null
/usr/bin/time -f "%e %U %S" -o "$work/t" "$revsum" summarize --opinions default --embedder "$embedder" --threads 2 \
  --db "$work/two.db" 2> "$work/inc.err" > /dev/null
read -r wall3 user3 sys3 < "$work/t"
cpu3=$(echo "$user3 + $sys3" | bc)
rescored=$(grep -o '[0-9,]* products re-scored, [0-9,]* reused' "$work/inc.err")

echo "$n reviews, $products products, embedder $embedder"
printf 'summarize --threads 1: %6.1f s wall, %6.1f s CPU\n' "$wall1" "$cpu1"
printf 'summarize --threads 2: %6.1f s wall, %6.1f s CPU  (speed-up %.2fx; exports identical: %s)\n' \
  "$wall2" "$cpu2" "$(echo "$wall1 / $wall2" | bc -l)" "$same"
printf 'incremental after %d new reviews on %d products: %6.1f s wall, %6.1f s CPU = %.1f%% of the full 2-thread run (%s)\n' \
  $((n / 100)) "$(wc -l < "$work/touched.txt")" "$wall3" "$cpu3" \
  "$(echo "100 * $wall3 / $wall2" | bc -l)" "$rescored"
[ "$same" = yes ] || { echo "FAIL: 1 and 2 threads gave different exports" >&2; exit 1; }
