#!/usr/bin/env bash
# What USE-lite adds to small products: every OpoSum and Copycat dev entity is cut into groups of
# K consecutive reviews (K = 1 2 3 4), each group summarised as if it were a product and scored
# against the entity's gold, with the default embedder and with --embedder lexical (issue 10:
# "spend the encoder where it pays"). Prints one ROUGE line per set, K and embedder.
#   bench/eval_small_groups.sh [BUILD_DIR]      (REVSUM_SHARED: default ../shared)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shared=${REVSUM_SHARED:-$here/../shared}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for set in oposum copycat; do
  python3 - "$shared/data/bench/${set}_dev.jsonl" "$work/$set" <<'PY'
import json, sys
entities = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
for k in (1, 2, 3, 4):
    with open(f"{sys.argv[2]}_k{k}.jsonl", "w", encoding="utf-8") as out:
        for e in entities:
            reviews = e["reviews"]
            for g in range(len(reviews) // k):
                group = dict(e, id=f"{e['id']}#{g}", reviews=reviews[g * k:(g + 1) * k])
                out.write(json.dumps(group, ensure_ascii=False) + "\n")
PY
  for k in 1 2 3 4; do
    for embedder in auto lexical; do
      line=$("$build/revsum" eval --gold "$work/${set}_k$k.jsonl" --budget-from-file --threads 2 \
        --embedder "$embedder" 2>&1 | tail -1)
      echo "$set K=$k --embedder $embedder: $line"
    done
  done
done
