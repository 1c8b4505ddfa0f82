#!/usr/bin/env bash
# Cost and held-out accuracy of a store's own opinion model (include/revsum/train.h) on the
# TripAdvisor hotel dump: ingests it (without its "Dec 23, 2008" dates, which revsum's time parser
# refuses), then runs `revsum train` under /usr/bin/time for each training cap and prints the
# held-out rating prediction (side of the predicted rating against the stars, 3 stars left out)
# of the store's model, the default model and the word lists, with wall, CPU and peak RSS.
#
# Usage: [REVIEWS=N] [CAPS="100000 0"] bench/train_opinions.sh [DUMP] [REVSUM]
#   REVIEWS: only the first N reviews of the dump (default: all 195,757); CAPS: values of
#   --max-reviews (0 = every review of the training part).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dump=${1:-$here/../shared/data/train/en/tripadvisor_hotels.jsonl.gz}
revsum=${2:-$here/build/revsum}
reviews=${REVIEWS:-0}
caps=${CAPS:-100000 0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$dump" "$work/hotels.jsonl" "$reviews" <<'PY'
import gzip, json, sys
src, dst, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
with gzip.open(src, 'rt', encoding='utf-8') as f, open(dst, 'w', encoding='utf-8') as out:
    for i, line in enumerate(f):
        if limit and i >= limit:
            break
        r = json.loads(line)
        r.pop('date', None)
        out.write(json.dumps(r, ensure_ascii=False) + '\n')
PY
/usr/bin/time -f "ingest: %e s wall, %U s user, %M KB peak RSS" \
  "$revsum" ingest "$work/hotels.jsonl" --db "$work/hotels.db" --product-field hotel_id \
  --id-field review_id --rating-field rating --quiet
for cap in $caps; do
  echo "== --max-reviews $cap"
  /usr/bin/time -f "train: %e s wall, %U s user, %M KB peak RSS" \
    "$revsum" train --db "$work/hotels.db" --max-reviews "$cap" --keep --no-store || true
done
