#!/usr/bin/env bash
# Fragment rate of revsum's summaries (issue 8), with the fragment rule of revsum/fragment.h:
# the share of selected summary sentences that the rule calls fragments, on the ten categories of
# the Chinese shopping dump and on the English dev sets, plus the dev ROUGE of the same run.
#
#   bench/fragments.sh [revsum binary] [work dir]
#     defaults: build/revsum, a fresh temp dir. Needs ../shared/data, sqlite3, python3, a C++20
#     compiler and build/librevsum_text.a (cmake --build build --target revsum_text).
#   SAMPLE=40 (default) sentences per language are written to <work dir>/sample_{zh,en}.tsv for a
#   hand check (fixed seed, so two binaries' samples are comparable).
#
# To compare before/after, run it with two binaries (e.g. one built at the previous commit):
#   bench/fragments.sh /tmp/revsum_before /tmp/before; bench/fragments.sh build/revsum /tmp/after
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
revsum=$(realpath "${1:-$root/build/revsum}")
work=${2:-$(mktemp -d)}
mkdir -p "$work"
shared=${REVSUM_SHARED:-$root/../shared}
sample=${SAMPLE:-40}

helper="$work/fragment_rate"
c++ -std=c++20 -O1 -I"$root/include" "$root/bench/fragment_rate.cc" \
  "$root/build/librevsum_text.a" $(pkg-config --cflags --libs icu-uc icu-i18n) -o "$helper"

echo "== Chinese: online_shopping_10_cats.csv, product = cat, default budget" >&2
rm -f "$work/zh.db"
# Exit code 3 = some records rejected (the dump has one malformed row); still a complete run.
rc=0
"$revsum" run "$shared/data/zh/online_shopping_10_cats.csv" --product-field cat --db "$work/zh.db" \
  -q --threads 1 >/dev/null || rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 3 ]; then echo "revsum run failed ($rc)" >&2; exit 1; fi
sqlite3 -separator $'\t' "$work/zh.db" \
  "SELECT su.subject, replace(se.text, char(9), ' ')
     FROM summaries su JOIN json_each(su.sentence_ids) j JOIN sentences se ON se.id = j.value
    WHERE su.scope = 'product' ORDER BY su.subject, j.key" >"$work/zh.tsv"
"$helper" "$root/models/fragments" <"$work/zh.tsv"
"$helper" --list "$root/models/fragments" <"$work/zh.tsv" | grep -v '^ALL\|sentences' \
  >"$work/zh_fragments.tsv" || true

echo "== English: oposum, copycat, opinosis dev, --budget-from-file" >&2
"$revsum" eval --gold "$shared/data/bench/oposum_dev.jsonl" \
  --gold "$shared/data/bench/copycat_dev.jsonl" --gold "$shared/data/bench/opinosis_dev.jsonl" \
  --budget-from-file --write-summaries "$work/en.jsonl" | tee "$work/rouge.txt"
python3 - "$work/en.jsonl" >"$work/en.tsv" <<'PY'
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    r = json.loads(line)
    print(f"{r['id']}\t{r['summary'].replace(chr(9), ' ').replace(chr(10), ' ')}")
PY
"$helper" --split "$root/models/fragments" <"$work/en.tsv"
"$helper" --split --list "$root/models/fragments" <"$work/en.tsv" | grep -v 'sentences' \
  >"$work/en_fragments.tsv" || true

# Samples for the hand check: every sentence, then a fixed-seed sample.
python3 - "$work" "$sample" <<'PY'
import random, sys, subprocess
work, n = sys.argv[1], int(sys.argv[2])
zh = [l.rstrip("\n") for l in open(f"{work}/zh.tsv", encoding="utf-8")]
random.Random(8).shuffle(zh)
open(f"{work}/sample_zh.tsv", "w", encoding="utf-8").write("\n".join(zh[:n]) + "\n")
en = [l.rstrip("\n") for l in open(f"{work}/en.tsv", encoding="utf-8")]
random.Random(8).shuffle(en)
open(f"{work}/sample_en.tsv", "w", encoding="utf-8").write("\n".join(en[: max(1, n // 5)]) + "\n")
PY
echo "work dir: $work (zh.tsv, en.tsv, *_fragments.tsv, sample_*.tsv, rouge.txt)" >&2
