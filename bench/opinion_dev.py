#!/usr/bin/env python3
"""Sentence sides against 500 hand-labelled development sentences (bench/data/opinion_dev_labels.tsv).

The sentences are picked from ../shared/data/bench/oposum_dev.jsonl (300: Amazon products) and
space_dev.jsonl (200: hotels) by a fixed rule (below); the labels (praise / complaint / neutral,
read from the sentence alone) are revsum's own. For each model given, every sentence is scored by
`revsum opinions` and compared with its label:

  accuracy    the side (praise / complaint / neutral) equals the label, over all 500
  sided       sentences given a side; wrong = given the other side or a side on a neutral one
  recall      labelled praise or complaint and given that side

Rows: the word lists alone (what points used before the model), the model with the word lists as a
prior (what a run stores: CombineWithWordLists), and with --band, the model alone at that band.

Usage: bench/opinion_dev.py [--revsum build/revsum] [--model FILE]... [--band B]...
       (no --model: the shipped default model)
"""
import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.environ.get("REVSUM_SHARED", os.path.join(HERE, "..", "..", "shared"))


def sentences(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            for review in json.loads(line)["reviews"]:
                text = re.sub(r"\s+", " ", review["text"]).strip()
                for s in re.split(r"(?<=[.!?])\s+", text):
                    s = s.strip()
                    if 4 <= len(s.split()) <= 40:
                        out.append(s)
    return out


def picked():
    rows = []
    for name, k, n in (("oposum", 7, 300), ("space", 11, 200)):
        all_ = sentences(os.path.join(SHARED, "data", "bench", f"{name}_dev.jsonl"))
        pick = [s for i, s in enumerate(all_) if i % k == k - 1][:n]
        if len(pick) < n:  # a set too small for every k-th: a second pass at another offset
            pick += [s for i, s in enumerate(all_) if i % k == 3][: n - len(pick)]
        rows += [(name, s) for s in pick]
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--revsum", default=os.path.join(HERE, "..", "build", "revsum"))
    ap.add_argument("--model", action="append", default=[])
    ap.add_argument("--band", action="append", type=float, default=[])
    a = ap.parse_args()
    labels = []
    with open(os.path.join(HERE, "data", "opinion_dev_labels.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or line.startswith("index"):
                continue
            i, name, label = line.rstrip("\n").split("\t")
            labels.append((int(i), name, label))
    rows = picked()
    if len(rows) != len(labels) or any(rows[i][0] != n for i, n, _ in labels):
        sys.exit("opinion_dev.py: the picked sentences do not line up with the labels")
    text = "\n".join(s for _, s in rows) + "\n"

    def report(name, sides):
        for subset in ("all", "oposum", "space"):
            idx = [i for i, n, _ in labels if subset == "all" or n == subset]
            gold = {i: l for i, _, l in labels}
            acc = sum(sides[i] == gold[i] for i in idx)
            sided = [i for i in idx if sides[i] != "neutral"]
            wrong = sum(sides[i] != gold[i] for i in sided)
            opin = [i for i in idx if gold[i] != "neutral"]
            rec = sum(sides[i] == gold[i] for i in opin)
            print(f"{name:28s} {subset:6s} accuracy {100 * acc / len(idx):5.1f} %  "
                  f"sided {len(sided):3d} wrong {wrong:3d} ({100 * wrong / max(len(sided), 1):4.1f} %)  "
                  f"recall {100 * rec / max(len(opin), 1):5.1f} %")

    models = a.model or [""]
    for m in models:
        cmd = [a.revsum, "opinions", "--json"] + (["--model", m] if m else [])
        out = subprocess.run(cmd, input=text, capture_output=True, text=True, check=True).stdout
        scored = [json.loads(l) for l in out.splitlines()]
        if m == models[0]:
            report("word lists", ["praise" if s["word_lists"] > 0 else "complaint"
                                  if s["word_lists"] < 0 else "neutral" for s in scored])
        for band in [None] + a.band:
            if band is None:
                sides = [s["polarity"] for s in scored]
            else:
                sides = ["praise" if s["model"] >= band else "complaint"
                         if s["model"] <= -band else "neutral" for s in scored]
            report(f"{os.path.basename(m) or 'default'}" +
                   (f" alone, band {band}" if band else " + word lists"), sides)


if __name__ == "__main__":
    main()
