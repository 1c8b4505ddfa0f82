#!/usr/bin/env python3
"""Throughput of the numpy USE-lite reference (reference_forward.py) on our bench sentences.

reference_forward.py's own --bench uses its golden sentences; this driver imports its Model and
Tokenizer and times the forward pass (pre-tokenized, like the reference's bench) on the sentences
of bench/data/use_lite_sentences.txt at batch 1 and batch 32.  Needs numpy (/usr/bin/python3).

  /usr/bin/python3 bench/use_lite_numpy_bench.py --reference DIR --model-dir DIR \
      [--sentences FILE] [--seconds S]
Prints lines "NUMPY batch=<b> sentences_per_s=<x>".
"""
import argparse
import json
import os
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reference", required=True, help="folder holding reference_forward.py")
    ap.add_argument("--model-dir", required=True)
    ap.add_argument("--sentences", required=True)
    ap.add_argument("--seconds", type=float, default=5.0)
    a = ap.parse_args()
    sys.path.insert(0, a.reference)
    import reference_forward as ref  # noqa: E402

    model = ref.Model(a.model_dir)
    with open(os.path.join(a.model_dir, "vocab.json"), encoding="utf-8") as f:
        tok = ref.Tokenizer(json.load(f))
    texts = [l.rstrip("\n") for l in open(a.sentences, encoding="utf-8") if l.strip()]
    ids = [tok.encode(t) for t in texts]
    for bs in (1, 32):
        batches = [ids[i:i + bs] for i in range(0, len(ids) - bs + 1, bs)]
        model.embed_ids(batches[0])  # warm-up
        n, k, t0 = 0, 0, time.perf_counter()
        while time.perf_counter() - t0 < a.seconds:
            model.embed_ids(batches[k % len(batches)])
            n += bs
            k += 1
        dt = time.perf_counter() - t0
        print("NUMPY batch=%d sentences_per_s=%.1f" % (bs, n / dt), flush=True)


if __name__ == "__main__":
    sys.exit(main())
