#!/usr/bin/env bash
# Two revsum binaries' `summarize` on the same store, alternated, so that a busy machine's drift
# hits both alike: each round copies the ingested store and runs BEFORE, then AFTER (lexical
# embedder, --threads 2 unless THREADS is set). Prints every run's wall / user seconds and peak
# RSS, the medians, and AFTER / BEFORE for wall and user time.
#   bench/compare_summarize.sh BEFORE AFTER STORE.db [ROUNDS=3]
# STORE.db: an ingested store without runs (e.g. `revsum ingest DUMP --db STORE.db`); it is not
# modified. EMBEDDER (default lexical) picks the embedder. Copied binaries find their models
# with REVSUM_MODELS_DIR.
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
    /usr/bin/time -f "%e %U %M" -o "$work/t" "$bin" summarize -q --db "$work/s.db" \
      --embedder "${EMBEDDER:-lexical}" --threads "${THREADS:-2}" > /dev/null
    read -r wall user rss < "$work/t"
    echo "$which $wall $user $rss" >> "$work/runs"
    printf 'round %d %-6s %8.2f s wall %8.2f s user %6d MB\n' "$round" "$which" "$wall" "$user" \
      "$((rss / 1024))"
  done
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
