#!/usr/bin/env bash
# Points against human key-point groupings: ArgKP-2021 (../shared/data/bench/argkp, IBM's key
# point analysis data: arguments on a topic, grouped by people into the key points they make).
#
# For each split (train, dev) and each way of reading it (rated: the dump's `rating`, 5 = pro and
# 1 = con, so a store trains its opinions on the stances; unrated: the ratings removed, so the
# default opinion model sides the sentences), runs revsum over the split (topic = product,
# argument = review) into a temporary store and scores its points with
# ../shared/tools/score_argkp.py: B-cubed F1 over the arguments with one key point, key points
# matched by a point at F1 >= 0.5, share error (points) over the matched ones, stance purity of
# the points' members, and the number of points. The script's reference partitions (every
# argument in one point; the two stances) are printed once per split.
#
# Usage: bench/argkp.sh [SPLIT...]   (default: train dev); REVSUM=path/to/revsum to override;
# SHARED=path/to/shared (default ../shared beside the project).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
revsum=${REVSUM:-$here/build/revsum}
shared=${SHARED:-$here/../shared}
splits=("$@")
[ ${#splits[@]} -gt 0 ] || splits=(train dev)
python=python3
[ -x /usr/bin/python3 ] && python=/usr/bin/python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-6s %-10s %7s %8s %9s %8s %7s\n' split ratings B3-F1 matched share-err purity points
cat > "$work/row.py" <<'PY'
import json, sys
d = json.loads(sys.stdin.read())
split, mode = sys.argv[1], sys.argv[2]
def row(name, r, purity, points):
    print(f"{split:6s} {name:10s} {r['bcubed_f1_macro']:7.3f} {r['matched_frac']:8.3f} "
          f"{r['share_mae_pp'] or 0:9.1f} {purity:>8s} {points:>7s}")
row(mode, d, f"{d['stance_purity_macro'] or 0:.3f}", str(d["points"]))
if mode == "rated":
    for kind, r in d.get("reference", {}).items():
        row(kind, r, "-", "-")
PY
for split in "${splits[@]}"; do
  src="$shared/data/bench/argkp/$split.jsonl"
  gold="$shared/data/bench/argkp/${split}_gold.json"
  [ -r "$src" ] && [ -r "$gold" ] || { echo "argkp.sh: no $src or $gold" >&2; exit 1; }
  "$python" - "$src" "$work/$split-unrated.jsonl" <<'PY'
import json, sys
with open(sys.argv[1], encoding="utf-8") as f, open(sys.argv[2], "w", encoding="utf-8") as out:
    for line in f:
        record = json.loads(line)
        record.pop("rating", None)
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
PY
  for mode in rated unrated; do
    input=$src
    [ "$mode" = unrated ] && input="$work/$split-unrated.jsonl"
    db="$work/$split-$mode.db"
    "$revsum" run "$input" --db "$db" --product-field product_id --id-field review_id --quiet \
      > /dev/null 2> "$work/err"
    "$python" "$shared/tools/score_argkp.py" "$gold" "$db" --examples 0 > "$work/score" 2>&1 || {
      cat "$work/err" "$work/score" >&2
      exit 1
    }
    head -1 "$work/score" | "$python" "$work/row.py" "$split" "$mode"
  done
done
