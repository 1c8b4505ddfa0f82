#!/usr/bin/env bash
# Support and polarity of points on dumps with planted opinions (bench/gen_planted.py, issue 8).
#
# For each language (en, zh), seed, with and without ratings, and with the generator's own and its
# held-out wordings (--heldout; Chinese also the --blind set): generates 2 products x 200 reviews,
# runs revsum into a temporary store and prints, per planted opinion, the point that holds most of
# its sentences (from point_evidence): its share against the planted one, its polarity, how many of
# its members are the opinion's, and how many other points hold some of it. "ok" = within 5
# points, right polarity; and "FALSE" for a praise or complaint point that is mostly filler (a
# verdict no planted opinion says). Ends with the counts per configuration.
#
# Usage: bench/points_planted.sh [SEEDS...]   (default: 7 3 11); REVSUM=path/to/revsum to override;
# REVIEWS (default 200) and PRODUCTS (default 2) set the shape, e.g. REVIEWS=5000 PRODUCTS=1 for big
# products; LANGS="zh" (default "en zh") runs one language.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
revsum=${REVSUM:-$here/build/revsum}
seeds=("$@")
reviews=${REVIEWS:-200}
products=${PRODUCTS:-2}
[ ${#seeds[@]} -gt 0 ] || seeds=(7 3 11)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for lang in ${LANGS:-en zh}; do
  for words in "" --heldout $([ "$lang" = zh ] && echo --blind); do
    for rated in "" --no-ratings; do
      ok=0
      total=0
      filler=0
      for seed in "${seeds[@]}"; do
        d="$work/$lang$words$rated$seed"
        mkdir -p "$d"
        python3 "$here/bench/gen_planted.py" "$d" --lang "$lang" --products "$products" --reviews "$reviews" \
          --seed "$seed" $words $rated > /dev/null
        "$revsum" run "$d/planted_$lang.jsonl" --db "$d/p.db" --quiet > /dev/null
        out=$(python3 - "$d/p.db" "$d/planted_$lang.jsonl.truth.json" <<'PY'
import collections, json, sqlite3, sys, unicodedata
db, truth_path = sys.argv[1], sys.argv[2]
def norm(t):
    return unicodedata.normalize('NFKC', t).rstrip('.。!！')
rows = sqlite3.connect(db).execute("""SELECT e.product, e.idx, pp.polarity, pp.share, e.sentence
    FROM point_evidence e JOIN product_points pp
      ON pp.run_id = e.run_id AND pp.product = e.product AND pp.idx = e.idx""").fetchall()
truth = json.load(open(truth_path, encoding='utf-8'))
for product, entry in truth.items():
    for o in entry['opinions']:
        wordings = {norm(t) for t in o['paraphrases']}
        hits, size, meta = collections.Counter(), collections.Counter(), {}
        for p, idx, polarity, share, sentence in rows:
            if p != product:
                continue
            size[idx] += 1
            meta[idx] = (polarity, share)
            hits[idx] += norm(sentence) in wordings
        hits = +hits
        if not hits:
            print(f"BAD {product} {o['key']}: planted {100 * o['share']:.0f}% {o['polarity']}: no point")
            continue
        idx, n = hits.most_common(1)[0]
        polarity, share = meta[idx]
        ok = abs(share - o['share']) <= 0.05 and polarity == o['polarity']
        print(f"{'ok ' if ok else 'BAD'} {product} {o['key']}: planted {100 * o['share']:.0f}% "
              f"{o['polarity']} -> {100 * share:.1f}% {polarity} (members {n}/{size[idx]} its own; "
              f"{len(hits) - 1} other points hold some)")
# A verdict no planted opinion says: a praise or complaint point under 20 % of whose members are
# planted wordings (the rest is filler, which says no verdict).
planted = {norm(t) for e in truth.values() for o in e['opinions'] for t in o['paraphrases']}
points = collections.defaultdict(list)
for p, idx, polarity, share, sentence in rows:
    points[(p, idx, polarity, share)].append(norm(sentence) in planted)
for (p, idx, polarity, share), m in sorted(points.items()):
    if polarity in ('praise', 'complaint') and sum(m) < 0.2 * len(m):
        print(f"FALSE {p} point {idx}: {100 * share:.1f}% {polarity} "
              f"({sum(m)}/{len(m)} members planted)")
PY
)
        echo "$out" | sed "s/^/$lang${words:+ ${words#--}}${rated:+ unrated} seed $seed: /"
        ok=$((ok + $(echo "$out" | grep -c '^ok' || true)))
        total=$((total + $(echo "$out" | grep -c -v '^FALSE' || true)))
        filler=$((filler + $(echo "$out" | grep -c '^FALSE' || true)))
      done
      echo "== $lang${words:+ ${words#--}}${rated:+ unrated}: $ok/$total planted opinions within 5 points with the right polarity; $filler praise/complaint points of filler"
    done
  done
done
