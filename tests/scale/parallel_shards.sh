#!/usr/bin/env bash
# The "Many machines" recipe of docs/usage.md, run with local processes: N shard stores built by
# GNU parallel (`revsum run --shard K/N`), joined by `revsum merge`, must export exactly what one
# store built in one process exports.
#
#   tests/scale/parallel_shards.sh BINARY [DUMP...]     (default dumps: samples/*)
#
# Exports cite the dumps' own review ids (h:<content hash> for a review without one), and JSON
# names sentences by citation and index ("ID#2"), all the same in every store, so every format —
# json, text, markdown, prompt, and the flat text and JSON exports — must be identical byte for
# byte. Exit 0 when every comparison holds, 1 otherwise (with a diff).
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

# The recipe (docs/usage.md, "Many machines").
parallel -j2 --halt now,fail=1 run_ok "$bin" run "${dumps[@]}" --shard {}/"$shards" \
  --db shard{}.db --embedder lexical -q ::: $(seq 1 "$shards")
"$bin" merge -q all.db shard*.db
# The reference: one store built in one process.
run_ok "$bin" run "${dumps[@]}" --db one.db --embedder lexical -q > /dev/null

status=0
for format in json text markdown prompt flat flat-json; do
  args=(--format "$format")
  [ "$format" = flat ] && args=(--format text --flat)
  [ "$format" = flat-json ] && args=(--format json --flat)
  "$bin" export --db all.db "${args[@]}" > "all.$format"
  "$bin" export --db one.db "${args[@]}" > "one.$format"
  if cmp -s "all.$format" "one.$format"; then
    echo "$format: merged export identical to the one-process export, byte for byte" \
      "($(wc -c < "all.$format") bytes)"
  else
    echo "$format: merged export DIFFERS from the one-process export" >&2
    { diff "one.$format" "all.$format" || true; } | head -20 >&2
    status=1
  fi
done
exit $status
