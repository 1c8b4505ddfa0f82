#!/usr/bin/env bash
# Two revsum binaries' `summarize` on the same store, alternated, so that a busy machine's drift
# hits both alike: each round copies the ingested store and runs BEFORE, then AFTER (lexical
# embedder, --threads 2 unless THREADS is set). Prints every run's wall / user seconds and peak
# RSS, the medians, and AFTER / BEFORE for wall and user time.
#   bench/compare_summarize.sh BEFORE AFTER STORE.db [ROUNDS=3]
# STORE.db: an ingested store without runs (e.g. `revsum ingest DUMP --db STORE.db`); it is not
# modified. EMBEDDER (default lexical) picks the embedder. Copied binaries find their models
# with REVSUM_MODELS_DIR. BEFORE_THREADS and AFTER_THREADS override THREADS for one side: one
# binary twice measures 2 threads against 1,
#   BEFORE_THREADS=1 AFTER_THREADS=2 EMBEDDER=auto bench/compare_summarize.sh R R STORE.db 1
# Each round also says whether the two runs stored the same points (with their members) and
# summaries (with their sentence ids): md5 of those rows.
set -euo pipefail
before=${1:?usage: bench/compare_summarize.sh BEFORE AFTER STORE.db [ROUNDS]}
after=${2:?usage: bench/compare_summarize.sh BEFORE AFTER STORE.db [ROUNDS]}
store=${3:?usage: bench/compare_summarize.sh BEFORE AFTER STORE.db [ROUNDS]}
rounds=${4:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for round in $(seq "$rounds"); do
  for which in before after; do
    bin=$before
    [ "$which" = after ] && bin=$after
    cp "$store" "$work/s.db"
    rm -f "$work/s.db-wal" "$work/s.db-shm"
    threads=${THREADS:-2}
    [ "$which" = before ] && threads=${BEFORE_THREADS:-$threads}
    [ "$which" = after ] && threads=${AFTER_THREADS:-$threads}
    /usr/bin/time -f "%e %U %M" -o "$work/t" "$bin" summarize -q --db "$work/s.db" \
      --embedder "${EMBEDDER:-lexical}" --threads "$threads" > /dev/null
    sqlite3 "$work/s.db" "SELECT product, idx, polarity, support, text FROM points ORDER BY 1, 2;
      SELECT p.product, p.idx, m.sentence_id FROM point_members m JOIN points p ON p.id = m.point_id
      ORDER BY 1, 2, 3; SELECT scope, subject, text, sentence_ids FROM summaries ORDER BY 1, 2" |
      md5sum >"$work/$which.md5"
    read -r wall user rss < "$work/t"
    echo "$which $wall $user $rss" >> "$work/runs"
    printf 'round %d %-6s %8.2f s wall %8.2f s user %6d MB (--threads %s)\n' "$round" "$which" \
      "$wall" "$user" "$((rss / 1024))" "$threads"
  done
  if cmp -s "$work/before.md5" "$work/after.md5"; then
    echo "round $round: the same points and summaries"
  else
    echo "round $round: different points or summaries"
  fi
done
python3 - "$work/runs" <<'PY'
import statistics, sys
runs = {"before": [], "after": []}
for line in open(sys.argv[1]):
    which, wall, user, _ = line.split()
    runs[which].append((float(wall), float(user)))
med = {k: (statistics.median(w for w, _ in v), statistics.median(u for _, u in v)) for k, v in runs.items()}
for k in ("before", "after"):
    print(f"median {k:6s} {med[k][0]:8.2f} s wall {med[k][1]:8.2f} s user")
print(f"after / before: wall {med['after'][0] / med['before'][0]:.3f}, user {med['after'][1] / med['before'][1]:.3f}")
PY
