#!/usr/bin/env bash
# One million reviews end to end (issue 10): ingest, then summarise with the default embedder and
# with lexical, on text whose sentences never repeat (bench/gen_reviews.py --unique: each sentence
# carries its own running number and random words), so the embedding cache cannot hide the
# encoder as it does with the phrase-table text. Prints wall seconds, CPU seconds (user + sys) and
# peak RSS of every step.
#   bench/million.sh BUILD_DIR [N=1000000] [THREADS=0]
# EMBEDDERS="lexical" (default "auto lexical") picks the summarise runs; PRECISIONS="int8 float32"
# (default "int8") runs the USE-lite ones with each --encoder-precision. PRODUCTS=P spreads the
# reviews over P products (default 50,000, about 20 reviews each at a million; a smaller run keeps
# that product size with PRODUCTS=N/20).
# The summarise runs read copies of the ingested store, so each starts from the same state.
set -euo pipefail
build=${1:?usage: bench/million.sh BUILD_DIR [N] [THREADS]}
n=${2:-1000000}
threads=${3:-0}
here=$(cd "$(dirname "$0")" && pwd)
revsum="$build/revsum"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

step() {  # label, command...: runs it and prints "label: wall s, CPU s, peak RSS MB"
  local label=$1
  shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$@" > /dev/null 2> "$work/err" || {
    cat "$work/err" >&2
    exit 1
  }
  read -r wall user sys rss < "$work/t"
  printf '%-28s %8.1f s wall %8.1f s CPU %7.0f MB peak RSS\n' "$label:" "$wall" \
    "$(echo "$user + $sys" | bc)" "$(echo "$rss / 1024" | bc)"
}

python3 "$here/gen_reviews.py" "$n" "$work/reviews.jsonl" --unique --products "${PRODUCTS:-50000}" > /dev/null
echo "$n reviews ($(du -m "$work/reviews.jsonl" | cut -f1) MB, sentences never repeat), $(nproc) cores, --threads $threads"
step "ingest" "$revsum" ingest -q "$work/reviews.jsonl" --threads "$threads" --db "$work/base.db"
sqlite3 "$work/base.db" "SELECT count(*) || ' products, ' || (SELECT count(*) FROM sentences) || ' sentences' FROM products"
for embedder in ${EMBEDDERS:-auto lexical}; do
  precisions=${PRECISIONS:-int8}
  [ "$embedder" = lexical ] && precisions=int8  # no encoder: the precision changes nothing
  for precision in $precisions; do
    label="--embedder $embedder"
    [ "$embedder" = lexical ] || label="$label $precision"
    cp "$work/base.db" "$work/$embedder.db"
    step "summarize $label" "$revsum" summarize -q --embedder "$embedder" \
      --encoder-precision "$precision" --threads "$threads" --db "$work/$embedder.db"
    rm -f "$work/$embedder.db" "$work/$embedder.db-wal" "$work/$embedder.db-shm"
  done
done
