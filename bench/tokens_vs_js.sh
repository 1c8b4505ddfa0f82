#!/usr/bin/env bash
# Measures revsum's tokenizer (bench/tokens_bench.cc, Google Benchmark) and js-tiktoken
# (bench/tokens_js_bench.mjs, node) on the same corpus in the same run, and prints tokens/s of
# each and the speed-up, per encoding. Both wall-clock and CPU-time rates are printed; the CPU
# ratio is the fair one on a shared, loaded machine.
#
# Usage: bench/tokens_vs_js.sh [build dir]      (default: build/; needs target tokens_bench)
# Corpus: $REVSUM_TOKENS_CORPUS or tests/data/tokens/parity.jsonl ({"text": ...} per line).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
corpus=${REVSUM_TOKENS_CORPUS:-$here/tests/data/tokens/parity.jsonl}
export REVSUM_TOKENS_CORPUS="$corpus"

if [ ! -x "$build/tokens_bench" ]; then
  echo "tokens_vs_js: $build/tokens_bench is missing; build it with" >&2
  echo "  cmake --build $build --target tokens_bench" >&2
  exit 1
fi
if [ ! -d "$here/scripts/make-token-fixtures/node_modules/js-tiktoken" ]; then
  (cd "$here/scripts/make-token-fixtures" && npm ci --silent)
fi

echo "corpus: $corpus ($(wc -l < "$corpus") texts, $(wc -c < "$corpus") bytes of JSONL)"
printf '%-12s %16s %16s %16s %16s %9s %9s\n' encoding "revsum tok/s" "js tok/s" \
  "revsum tok/cpu-s" "js tok/cpu-s" "x (wall)" "x (cpu)"
for enc in o200k_base cl100k_base; do
  cpp=$("$build/tokens_bench" --benchmark_filter="BM_Encode/$enc\$" --benchmark_format=json \
        --benchmark_min_time=3 2>/dev/null)
  js=$(node "$here/bench/tokens_js_bench.mjs" "$corpus" "$enc" 3)
  CPP="$cpp" JS="$js" ENC="$enc" node -e '
    const b = JSON.parse(process.env.CPP).benchmarks[0];
    const js = JSON.parse(process.env.JS);
    const scale = { ns: 1e-9, us: 1e-6, ms: 1e-3, s: 1 }[b.time_unit];
    const perPass = b.tokens_per_pass;
    if (perPass !== js.tokens / Math.round(js.tokens / perPass)) {
      console.error(`token counts differ: revsum ${perPass} per pass, js ${js.tokens} in total`);
    }
    const wall = perPass / (b.real_time * scale), cpu = perPass / (b.cpu_time * scale);
    const f = (x) => x.toFixed(0).padStart(16);
    console.log(process.env.ENC.padEnd(12) + " " + f(wall) + " " + f(js.tokens_per_s) + " " +
      f(cpu) + " " + f(js.tokens_per_cpu_s) + " " + (wall / js.tokens_per_s).toFixed(1).padStart(9) +
      " " + (cpu / js.tokens_per_cpu_s).toFixed(1).padStart(9));'
done
