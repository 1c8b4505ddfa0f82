#!/usr/bin/env python3
"""Writes N synthetic English reviews as JSON Lines in the Amazon 2023 shape, deterministically.

The sentences are assembled from phrase tables written for this project, so the text has the
length and punctuation mix of real reviews (2-8 sentences, some HTML line breaks and entities)
without copying any real review. Usage: gen_reviews.py N OUT.jsonl [--seed S] [--unique]
[--products P]

--products P: reviews spread uniformly over P products (default 50,000: about 20 reviews each at
a million, 1 to 2 at 10,000-100,000; set it to keep the million's product size in a smaller run).

--unique: no sentence repeats (each carries a detail with its own running number and random
words), so the embedding cache cannot hide the encoder's cost, as with real dumps (issue 10).
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


USES = ["cooking", "travel", "work", "camping", "school runs", "the gym", "gardening",
        "commuting", "a party", "daily chores", "my workshop", "the office", "hiking", "guests"]
ADJECTIVES = ["sturdy", "quiet", "bright", "heavy", "light", "smooth", "rough", "warm", "cold",
              "solid", "loose", "tight", "clean", "noisy", "simple", "odd", "handy", "fragile"]


def unique_detail(rng, counter):
    """A clause that makes a sentence unique: its own running number and random words."""
    return (f" after {rng.randint(2, 400)} days of {rng.choice(USES)}, "
            f"{rng.choice(ADJECTIVES)} and {rng.choice(ADJECTIVES)} (order {counter})")


def review(rng, i, unique=None, products=50000):
    n = rng.randint(2, 8)
    parts = []
    for _ in range(n):
        if unique is not None:
            unique[0] += 1
            parts.append(f"{rng.choice(SUBJECTS)} {rng.choice(VERDICTS)}"
                         f"{unique_detail(rng, unique[0])}.")
        elif rng.random() < 0.25:
            parts.append(rng.choice(EXTRAS))
        else:
            parts.append(f"{rng.choice(SUBJECTS)} {rng.choice(VERDICTS)}{rng.choice(TAILS)}.")
    text = " ".join(parts)
    product = f"B{rng.randint(0, products - 1):09d}"
    return {"rating": float(rng.randint(1, 5)), "title": rng.choice(EXTRAS), "text": text,
            "asin": product, "parent_asin": product, "user_id": f"U{i:012d}",
            "timestamp": 1500000000000 + i * 1000, "verified_purchase": rng.random() < 0.8}


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    args = sys.argv[3:]
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 42
    unique = [0] if "--unique" in args else None
    products = int(args[args.index("--products") + 1]) if "--products" in args else 50000
    rng = random.Random(seed)
    with open(out, "w", encoding="utf-8") as f:
        for i in range(n):
            f.write(json.dumps(review(rng, i, unique, products), ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
