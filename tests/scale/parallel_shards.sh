#!/usr/bin/env bash
# The README's "Many machines" recipe, run with local processes: N shard stores built by GNU
# parallel (`revsum run --shard K/N`), joined by `revsum merge`, must export exactly what one store
# built in one process exports.
#
#   tests/scale/parallel_shards.sh BINARY [DUMP...]     (default dumps: samples/*)
#
# Exports are compared twice: in full, byte for byte, and with the citations masked. Citations
# are review ids; while `revsum export` cites the store's internal ids (which differ between a
# merged store and one built in one process) only the masked comparison can hold. When
# `revsum export --help` says it cites the dumps' review ids, the full comparison is required too.
# Exit 0 when every required comparison holds, 1 otherwise (with a diff).
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 BINARY [DUMP...]" >&2
  exit 1
fi
bin=$(realpath "$1")
shift
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -gt 0 ]; then
  dumps=()
  for d in "$@"; do dumps+=("$(realpath "$d")"); done
else
  dumps=("$here/../../samples/en_reviews.jsonl" "$here/../../samples/mixed_reviews.jsonl"
         "$here/../../samples/zh_reviews.csv")
fi
if ! command -v parallel > /dev/null 2>&1; then
  echo "$0: GNU parallel is missing: apt-get install parallel" >&2
  exit 1
fi
shards=${SHARDS:-3}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# Exit code 3 means "finished, some records were rejected": a success for this recipe.
run_ok() { "$@" || [ $? -eq 3 ]; }
export -f run_ok

# The recipe (README, "Many machines").
parallel -j2 --halt now,fail=1 run_ok "$bin" run "${dumps[@]}" --shard {}/"$shards" \
  --db shard{}.db --embedder lexical -q ::: $(seq 1 "$shards")
"$bin" merge -q all.db shard*.db
# The reference: one store built in one process.
run_ok "$bin" run "${dumps[@]}" --db one.db --embedder lexical -q > /dev/null

status=0
cites_dump_ids=no
if "$bin" export --help | grep -qiE "dump ids|dumps?'? (own )?review ids"; then cites_dump_ids=yes; fi
for format in json text markdown; do
  "$bin" export --db all.db --format "$format" > "all.$format"
  "$bin" export --db one.db --format "$format" > "one.$format"
  # Citations: "citations":[3,17] in JSON, [r17] in text and markdown.
  for f in all one; do
    sed -E 's/"citations":\[[^]]*\]/"citations":[]/g; s/\[r[^]]*\]/[r]/g' "$f.$format" \
      > "$f.masked.$format"
  done
  if cmp -s "all.$format" "one.$format"; then
    echo "$format: merged export identical to the one-process export, byte for byte"
  elif [ "$cites_dump_ids" = yes ]; then
    echo "$format: merged export DIFFERS from the one-process export" >&2
    diff "one.$format" "all.$format" | head -20 >&2
    status=1
    continue
  else
    echo "$format: full exports differ (citations are store-internal review ids until export" \
      "cites the dumps' ids); comparing with citations masked"
  fi
  if cmp -s "all.masked.$format" "one.masked.$format"; then
    echo "$format: identical with citations masked ($(wc -c < "all.$format") bytes)"
  else
    echo "$format: merged export DIFFERS even with citations masked" >&2
    diff "one.masked.$format" "all.masked.$format" | head -20 >&2
    status=1
  fi
done
exit $status
