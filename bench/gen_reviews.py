#!/usr/bin/env python3
"""Writes N synthetic English reviews as JSON Lines in the Amazon 2023 shape, deterministically.

The sentences are assembled from phrase tables written for this project, so the text has the
length and punctuation mix of real reviews (2-8 sentences, some HTML line breaks and entities)
without copying any real review. Usage: gen_reviews.py N OUT.jsonl [--seed S]
"""
import json
import random
import sys

SUBJECTS = ["The battery", "This charger", "The zipper", "The fabric", "Setup", "The screen",
            "Shipping", "The lid", "The handle", "Customer service", "The sound", "The strap",
            "The blade", "The app", "The fit", "The colour", "The price", "The cable"]
VERDICTS = ["works great", "broke after two weeks", "is better than expected",
            "feels cheap", "lasts all day", "is a bit flimsy", "was easy", "took forever",
            "is exactly as described", "stopped working", "is worth every penny",
            "runs small", "is very comfortable", "could be brighter", "arrived damaged"]
TAILS = ["", " for the money", " so far", " in my opinion", " after a month of daily use",
         " compared to my old one", " honestly", " to be fair"]
EXTRAS = ["Would buy again!", "Not recommended.", "Five stars.", "Meh...", "Love it!!!",
          "I returned it.", "My kids use it every day.", "It does the job.",
          "Great value for &quot;budget&quot; gear.", "Packaging was fine.<br />Nothing special."]


def review(rng, i):
    n = rng.randint(2, 8)
    parts = []
    for _ in range(n):
        if rng.random() < 0.25:
            parts.append(rng.choice(EXTRAS))
        else:
            parts.append(f"{rng.choice(SUBJECTS)} {rng.choice(VERDICTS)}{rng.choice(TAILS)}.")
    text = " ".join(parts)
    product = f"B{rng.randint(0, 49999):09d}"
    return {"rating": float(rng.randint(1, 5)), "title": rng.choice(EXTRAS), "text": text,
            "asin": product, "parent_asin": product, "user_id": f"U{i:012d}",
            "timestamp": 1500000000000 + i * 1000, "verified_purchase": rng.random() < 0.8}


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    seed = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == "--seed" else 42
    rng = random.Random(seed)
    with open(out, "w", encoding="utf-8") as f:
        for i in range(n):
            f.write(json.dumps(review(rng, i), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
