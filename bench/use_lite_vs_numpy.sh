#!/usr/bin/env bash
# Compares the C++ USE-lite encoder (bench/use_lite_bench.cc) with the numpy reference
# (../shared/reference/use-lite/reference_forward.py) on the same 200 review sentences, in the same
# run, and prints the speed ratio at batch 1 and batch 32, plus FLOP/s as a fraction of fp32 peak.
#
#   bench/use_lite_vs_numpy.sh [BUILD_DIR]      (default: build; the use_lite_bench target must be built)
# Environment: REVSUM_SHARED (default ../shared), REVSUM_USE_LITE_THREADS (default: all cores),
#   SECONDS_PER_CASE (numpy timing per batch size, default 5).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shared=${REVSUM_SHARED:-$here/../shared}
reference="$shared/reference/use-lite"
models=${REVSUM_MODELS_DIR:-$here/models}
sentences="$here/bench/data/use_lite_sentences.txt"
bench="$build/use_lite_bench"
[ -x "$bench" ] || { echo "use_lite_vs_numpy: $bench not built (cmake --build $build --target use_lite_bench)" >&2; exit 1; }
[ -f "$reference/reference_forward.py" ] || { echo "use_lite_vs_numpy: $reference/reference_forward.py missing" >&2; exit 1; }
[ -f "$models/use-lite/model.json" ] || { echo "use_lite_vs_numpy: model missing; run scripts/fetch-use-lite" >&2; exit 1; }

echo "== load: $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min), $(nproc) CPUs"
echo "== C++ $bench (Embed(): tokenizer + forward, cache off)"
cpp=$("$bench" --benchmark_filter='BM_UseLiteBatch(1|32)/' --benchmark_format=json 2>/dev/null)
numpy_out=$(/usr/bin/python3 "$here/bench/use_lite_numpy_bench.py" --reference "$reference" \
  --model-dir "$models/use-lite" --sentences "$sentences" --seconds "${SECONDS_PER_CASE:-5}")
echo "== numpy reference (forward only, pre-tokenized), /usr/bin/python3"
echo "$numpy_out"

CPP_JSON="$cpp" NUMPY_OUT="$numpy_out" /usr/bin/python3 - <<'PY'
import json, os, re
cpp = json.loads(os.environ["CPP_JSON"])
numpy = {int(b): float(v) for b, v in re.findall(r"batch=(\d+) sentences_per_s=([\d.]+)", os.environ["NUMPY_OUT"])}
# fp32 peak: CPUs x GHz x 2 FMA units x 2 FLOP/FMA x SIMD lanes (16 with avx512f, 8 with avx2).
flags = open("/proc/cpuinfo").read()
cpus = flags.count("processor\t:")
mhz = [float(m) for m in re.findall(r"cpu MHz\s*:\s*([\d.]+)", flags)]
ghz = max(mhz) / 1000 if mhz else float("nan")
lanes = 16 if " avx512f" in flags else 8 if " avx2" in flags else 4
peak = cpus * ghz * 2 * 2 * lanes * 1e9
print("== peak fp32: %d CPUs x %.2f GHz x 2 FMA units x 2 x %d lanes = %.0f GFLOP/s" % (cpus, ghz, lanes, peak / 1e9))
for b in cpp["benchmarks"]:
    batch = 1 if "Batch1/" in b["name"] else 32
    sps = b["sentences/s"]
    flops = b["FLOP/s"]
    ratio = sps / numpy[batch] if numpy.get(batch) else float("nan")
    print("batch=%-2d  C++ %8.1f sentences/s  numpy %7.1f sentences/s  ratio %5.1fx  "
          "C++ %.1f GFLOP/s = %.1f%% of peak  (threads=%d, %.1f tokens/sentence)"
          % (batch, sps, numpy.get(batch, float("nan")), ratio, flops / 1e9, 100 * flops / peak,
             b["threads"], b["tokens/sentence"]))
PY
