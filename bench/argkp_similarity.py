#!/usr/bin/env python3
"""How far a better similarity could take the points on ArgKP-2021 (../shared/data/bench/argkp).

Arguments are embedded with `revsum embed` (USE-lite; the lexical embedder fitted per topic),
split by their gold stance (the ratings' side, as if every side were right), and scored over the
arguments with one key point:
  nn   within each topic and stance, the share of arguments whose nearest other argument makes
       the same key point (a neighbour with no or several key points counts as a miss): what any
       clustering on this similarity starts from;
  b3   B-cubed F1 of average linkage within each stance at the given cut (mean pairwise cosine
       after removing half the side's mean; groups of fewer than 5 arguments are singletons,
       as revsum's 2 % of a topic's ~240 arguments), against the stance split alone, and the
       number of such groups per side.
Spaces: USE-lite as is; USE-lite through an LDA map fitted on the train topics' key points
(within-key-point scatter against between, ridge-regularised); USE-lite and lexical cosines mixed
half and half. Needs python3-numpy. Usage: bench/argkp_similarity.py [REVSUM] (default
build/revsum); SHARED=path (default ../shared beside the project).
"""
import json, os, subprocess, sys
from collections import defaultdict
import numpy as np

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
revsum = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "build", "revsum")
shared = os.environ.get("SHARED", os.path.join(here, "..", "shared"))


def embed(lines, embedder):
    out = subprocess.run([revsum, "embed", "--embedder", embedder], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout.split("\n")
    return np.array([json.loads(v) for v in out if v], dtype=np.float64)


def load(split):
    rows = [json.loads(l) for l in open(f"{shared}/data/bench/argkp/{split}.jsonl", encoding="utf-8")]
    texts = [" ".join(r["text"].split()) for r in rows]
    use = embed(texts, "use-lite")
    lex = np.zeros((len(rows), 0))
    by_topic = defaultdict(list)
    for i, r in enumerate(rows):
        by_topic[r["product_id"]].append(i)
    lex_rows = {}
    for idx in by_topic.values():
        for i, v in zip(idx, embed([texts[i] for i in idx], "lexical")):
            lex_rows[i] = v
    lex = np.array([lex_rows[i] for i in range(len(rows))])
    row_of = {r["review_id"]: i for i, r in enumerate(rows)}
    gold = json.load(open(f"{shared}/data/bench/argkp/{split}_gold.json", encoding="utf-8"))["topics"]
    sides = []  # (rows of one topic's stance, {row: key point} for its single-key-point rows)
    for t in gold.values():
        count, kp = defaultdict(int), {}
        for k in t["key_points"]:
            for a in k["members"]:
                count[a] += 1
                kp[a] = k["key_point_id"]
        for stance in (-1, 1):
            members = [row_of[a] for a, s in t["arg_stance"].items() if s == stance]
            single = {row_of[a]: kp[a] for a in t["arg_stance"] if a in kp and count[a] == 1
                      and t["arg_stance"][a] == stance}
            sides.append((t["topic"], members, single))
    return use, lex, sides


def unit(Z):
    return Z / (np.linalg.norm(Z, axis=1, keepdims=True) + 1e-12)


def similarity(space, use, lex, rows):
    centred = lambda Z: unit(Z - 0.5 * Z.mean(0))
    if space == "lda":
        Z = centred(unit(use[rows]) @ LDA)
        return Z @ Z.T
    Z = centred(use[rows])
    S = Z @ Z.T
    if space == "mix":
        L = unit(lex[rows])
        S = 0.5 * S + 0.5 * (L @ L.T)
    return S


def average_linkage(S, cut):
    S = S.copy()
    np.fill_diagonal(S, -np.inf)
    size = {i: 1 for i in range(len(S))}
    members = {i: [i] for i in range(len(S))}
    while len(members) > 1:
        i, j = np.unravel_index(np.argmax(S), S.shape)
        if S[i, j] < cut:
            break
        S[i, :] = (S[i, :] * size[i] + S[j, :] * size[j]) / (size[i] + size[j])
        S[:, i] = S[i, :]
        S[i, i] = -np.inf
        S[j, :] = -np.inf
        S[:, j] = -np.inf
        size[i] += size.pop(j)
        members[i] += members.pop(j)
    return list(members.values())


def bcubed(pred, gold):
    pc, gc = defaultdict(set), defaultdict(set)
    for a in gold:
        pc[pred[a]].add(a)
        gc[gold[a]].add(a)
    p = sum(len(pc[pred[a]] & gc[gold[a]]) / len(pc[pred[a]]) for a in gold) / len(gold)
    r = sum(len(pc[pred[a]] & gc[gold[a]]) / len(gc[gold[a]]) for a in gold) / len(gold)
    return 2 * p * r / (p + r)


def measure(space, data, cut):
    use, lex, sides = data
    ok = n = groups = 0
    f1 = defaultdict(lambda: [{}, {}, {}])  # topic -> pred, gold, by-stance pred
    for topic, rows, single in sides:
        S = similarity(space, use, lex, rows)
        where = {r: k for k, r in enumerate(rows)}
        for r, kp in single.items():
            s = S[where[r]].copy()
            s[where[r]] = -np.inf
            ok += single.get(rows[int(np.argmax(s))]) == kp
            n += 1
        for g, group in enumerate(average_linkage(S, cut)):
            groups += len(group) >= 5
            for k in group:
                label = (id(rows), g) if len(group) >= 5 else ("alone", rows[k])
                f1[topic][0][rows[k]] = label
        for r, kp in single.items():
            f1[topic][1][r] = kp
            f1[topic][2][r] = id(rows)
    b3 = np.mean([bcubed(p, g) for p, g, _ in f1.values()])
    stance = np.mean([bcubed(s, g) for _, g, s in f1.values()])
    return ok / n, b3, stance, groups / len(sides)


def fit_lda(data, ridge=3.0, k=16):
    use, _, sides = data
    d = use.shape[1]
    within, between, count = np.zeros((d, d)), np.zeros((d, d)), 0
    for _, rows, single in sides:
        Z = unit(use[rows])
        mean = Z.mean(0)
        groups = defaultdict(list)
        for z, r in zip(Z, rows):
            if r in single:
                groups[single[r]].append(z)
        for zs in groups.values():
            zs = np.array(zs)
            m = zs.mean(0)
            within += (zs - m).T @ (zs - m)
            between += len(zs) * np.outer(m - mean, m - mean)
            count += len(zs)
    within, between = within / count, between / count
    w, V = np.linalg.eigh(within + ridge * np.trace(within) / d * np.eye(d))
    W = V / np.sqrt(w)
    l, U = np.linalg.eigh(W.T @ between @ W)
    return W @ U[:, np.argsort(l)[::-1][:k]]


train, dev = load("train"), load("dev")
LDA = fit_lda(train)
print(f"{'space':8s} {'cut':>5s} {'split':6s} {'nn':>6s} {'b3':>6s} {'by-stance':>9s} {'groups/side':>11s}")
for space, cuts in (("use", (0.2, 0.3)), ("lda", (0.3, 0.4)), ("mix", (0.15, 0.2))):
    for cut in cuts:
        for name, data in (("train", train), ("dev", dev)):
            nn, b3, stance, groups = measure(space, data, cut)
            print(f"{space:8s} {cut:5.2f} {name:6s} {nn:6.3f} {b3:6.3f} {stance:9.3f} {groups:11.2f}",
                  flush=True)
