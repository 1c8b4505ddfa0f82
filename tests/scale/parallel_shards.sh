#!/usr/bin/env bash
# The README's "Many machines" recipe, run with local processes: N shard stores built by GNU
# parallel (`revsum run --shard K/N`), joined by `revsum merge`, must export exactly what one store
# built in one process exports.
#
#   tests/scale/parallel_shards.sh BINARY [DUMP...]     (default dumps: samples/*)
#
# Exports cite the dumps' own review ids (h:<content hash> for a review without one), which are
# the same in every store, so text, markdown, prompt and the flat text export must be identical
# byte for byte. JSON also names each point's sentence by the store's own id ("sentence"), which
# a merge remaps by design; JSON is compared with only that field masked. While an older
# `revsum export --help` does not say it cites the dumps' ids, citations are masked too.
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
for format in json text markdown prompt flat; do
  args=(--format "$format")
  [ "$format" = flat ] && args=(--format text --flat)
  "$bin" export --db all.db "${args[@]}" > "all.$format"
  "$bin" export --db one.db "${args[@]}" > "one.$format"
  # Store-internal ids: "sentence":N in JSON; citations too while they are not dump ids.
  for f in all one; do
    if [ "$cites_dump_ids" = yes ]; then
      sed -E 's/"sentence":[0-9]+/"sentence":0/g' "$f.$format" > "$f.masked.$format"
    else
      sed -E 's/"citations":\[[^]]*\]/"citations":[]/g; s/\[r[^]]*\]/[r]/g' "$f.$format" \
        > "$f.masked.$format"
    fi
  done
  if cmp -s "all.$format" "one.$format"; then
    echo "$format: merged export identical to the one-process export, byte for byte" \
      "($(wc -c < "all.$format") bytes)"
    continue
  elif [ "$cites_dump_ids" = yes ] && [ "$format" != json ]; then
    echo "$format: merged export DIFFERS from the one-process export" >&2
    { diff "one.$format" "all.$format" || true; } | head -20 >&2
    status=1
    continue
  fi
  if cmp -s "all.masked.$format" "one.masked.$format"; then
    echo "$format: identical with store-internal ids masked ($(wc -c < "all.$format") bytes)"
  else
    echo "$format: merged export DIFFERS even with store-internal ids masked" >&2
    { diff "one.masked.$format" "all.masked.$format" || true; } | head -20 >&2
    status=1
  fi
done
exit $status
