#!/usr/bin/env bash
# Memory bound of summarising one huge product: N generated reviews (bench/gen_reviews.py, made
# distinct per review so no cache can hide the work) all under one product, ingested, then
# summarised with the default embedder under GNU time. Fails when peak RSS reaches the bound.
#   bench/huge_product.sh BUILD_DIR [REVIEWS=42000] [BOUND_MB=1024]
# 42,000 reviews give about 215,000 sentences.
set -euo pipefail
build=${1:?usage: bench/huge_product.sh BUILD_DIR [REVIEWS] [BOUND_MB]}
reviews=${2:-42000}
bound_mb=${3:-1024}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/gen_reviews.py" "$reviews" "$work/gen.jsonl" > /dev/null
python3 - "$work/gen.jsonl" "$work/one.jsonl" <<'PY'
import json, sys
with open(sys.argv[1]) as src, open(sys.argv[2], "w") as out:
    for i, line in enumerate(src):
        d = json.loads(line)
        d["asin"] = d["parent_asin"] = "ONE"
        d["text"] = d["text"].replace(".", f" #{i}.", 1)
        out.write(json.dumps(d) + "\n")
PY
"$build/revsum" ingest -q "$work/one.jsonl" --db "$work/one.db" > /dev/null
sentences=$(sqlite3 "$work/one.db" "SELECT count(*) FROM sentences")
/usr/bin/time -f "%e %M" -o "$work/time" "$build/revsum" summarize -q --db "$work/one.db"
read -r seconds kb < "$work/time"
echo "one product, $reviews reviews, $sentences sentences: summarize ${seconds} s, peak RSS $((kb / 1024)) MB (bound ${bound_mb} MB)"
[ $((kb / 1024)) -lt "$bound_mb" ] || { echo "FAIL: peak RSS over the bound" >&2; exit 1; }
