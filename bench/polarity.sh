#!/usr/bin/env bash
# Polarity of points against the labels of the Chinese shopping dump (issue 8, "measure it").
#
# For each category (product) of online_shopping_10_cats.csv (columns cat,label,review; label 1 =
# positive, 0 = negative), runs revsum twice into temporary stores:
#   rated:   the label is the review's rating (0/1 scale), so points may use it;
#   unrated: the label is hidden (only the text decides), and kept aside by review id;
# and prints, per category, the share of praise/complaint points whose polarity agrees with the
# majority label of the reviews in their evidence (point_evidence), and how many points were
# neutral/unknown. English: tests/points/points_test.cc PolarityLexicon.EnglishHandLabelledSet.
#
# OPINIONS=auto|default|none (default auto) is passed to both runs as --opinions: auto trains the
# rated store's own model on its labels (a tenth held out), default is the shipped model (trained
# on nine tenths of this dump among others, so partly in-sample here), none is the word lists.
# Also printed: the share of the reviews in complaint points labelled positive and in praise points
# labelled negative.
#
# Usage: [ROWS=all|odd|even] [OPINIONS=...] bench/polarity.sh [CSV] [REVSUM]
#   (defaults: all rows, ../shared/data/zh/online_shopping_10_cats.csv, build/revsum). Takes ~2 minutes
#   on 2 cores (about half that for odd or even). ROWS picks data rows by 0-based index (row 0 is the
#   first after the header): scripts/mine_polarity_zh.py mines the Chinese word list from the even
#   rows only, so ROWS=odd measures it on reviews it was not mined from; all rows is partly in-sample.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
csv=${1:-$here/../shared/data/zh/online_shopping_10_cats.csv}
revsum=${2:-$here/build/revsum}
rows=${ROWS:-all}
opinions=${OPINIONS:-auto}
case "$rows" in
  all | odd | even) ;;
  *)
    echo "bench/polarity.sh: ROWS must be all, odd or even, not '$rows'" >&2
    exit 2
    ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$csv" "$work" "$rows" <<'PY'
import csv, sys
src, work, rows = sys.argv[1], sys.argv[2], sys.argv[3]
with open(src, newline='', encoding='utf-8-sig') as f, \
     open(f"{work}/rated.csv", 'w', newline='', encoding='utf-8') as r, \
     open(f"{work}/unrated.csv", 'w', newline='', encoding='utf-8') as u, \
     open(f"{work}/labels.tsv", 'w', encoding='utf-8') as l:
    rw, uw = csv.writer(r), csv.writer(u)
    rw.writerow(['id', 'cat', 'label', 'review'])
    uw.writerow(['id', 'cat', 'review'])
    for i, row in enumerate(csv.DictReader(f)):
        if not row.get('review') or (rows == 'odd' and i % 2 == 0) or (rows == 'even' and i % 2 == 1):
            continue
        rw.writerow([f"r{i}", row['cat'], row['label'], row['review']])
        uw.writerow([f"r{i}", row['cat'], row['review']])
        l.write(f"r{i}\t{row['label']}\n")
PY
"$revsum" run "$work/rated.csv" --product-field cat --id-field id --rating-field label \
  --db "$work/rated.db" --quiet --opinions "$opinions" > /dev/null
"$revsum" run "$work/unrated.csv" --product-field cat --id-field id --db "$work/unrated.db" \
  --quiet --opinions "$opinions" > /dev/null
python3 - "$work" "$rows" <<'PY'
import collections, sqlite3, sys
work = sys.argv[1]
labels = dict(line.rstrip('\n').split('\t') for line in open(f"{work}/labels.tsv", encoding='utf-8'))
for mode in ('rated', 'unrated'):
    con = sqlite3.connect(f"{work}/{mode}.db")
    rows = con.execute("""SELECT pp.product, pp.idx, pp.polarity, e.external_id
        FROM product_points pp JOIN point_evidence e
          ON e.run_id = pp.run_id AND e.product = pp.product AND e.idx = pp.idx""").fetchall()
    points = collections.defaultdict(set)
    for product, idx, polarity, ext in rows:
        points[(product, idx, polarity)].add(ext)
    per = collections.defaultdict(lambda: [0, 0, 0])  # agree, praise/complaint, all
    for (product, idx, polarity), reviews in points.items():
        pos = sum(labels.get(r) == '1' for r in reviews)
        neg = sum(labels.get(r) == '0' for r in reviews)
        majority = 'praise' if pos > neg else 'complaint' if neg > pos else None
        per[product][2] += 1
        if polarity in ('praise', 'complaint'):
            per[product][1] += 1
            per[product][0] += polarity == majority
    print(f"== {mode} ({sys.argv[2]} rows): points whose polarity agrees with the majority label of their reviews")
    total = [0, 0, 0]
    for product in sorted(per):
        a, c, n = per[product]
        total = [total[0] + a, total[1] + c, total[2] + n]
        print(f"{product}\t{a}/{c}\t{100 * a / max(c, 1):.0f}%\t(neutral/unknown {n - c} of {n})")
    a, c, n = total
    print(f"all\t{a}/{c}\t{100 * a / max(c, 1):.1f}%\t(neutral/unknown {n - c} of {n})")
    for side, wrong in (('complaint', '1'), ('praise', '0')):
        members = [r for (p, i, pol), rs in points.items() if pol == side for r in rs]
        bad = sum(labels.get(r) == wrong for r in members)
        print(f"reviews in {side} points labelled {'positive' if wrong == '1' else 'negative'}: "
              f"{bad} of {len(members)} ({100 * bad / max(len(members), 1):.1f} %)")
PY
