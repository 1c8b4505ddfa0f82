#!/usr/bin/env python3
"""Candidate Chinese polarity terms from labelled reviews, for hand curation into
models/polarity/zh.txt (issue 8, "Polarity").

Reads a CSV with columns cat,label,review (label 1 = positive, 0 = negative), by default
../shared/data/zh/online_shopping_10_cats.csv, and uses ONLY the data rows with an even 0-based
index (row 0 is the first row after the header); the odd rows are kept out so that
`ROWS=odd bench/polarity.sh` measures the list on reviews it was not mined from.

For every character n-gram of 2-4 characters inside a run of CJK characters (an n-gram never
spans punctuation, Latin letters or digits) it counts the reviews of each label that contain it
(a review counts once per n-gram, so one review repeating a word cannot carry it). Terms are
ranked by the weighted log-odds ratio with an informative Dirichlet prior of Monroe, Colaresi &
Quinn (2008), "Fightin' Words":

    delta_w = log((y_pw + a_w) / (n_p + a0 - y_pw - a_w)) - log((y_nw + a_w) / (n_n + a0 - y_nw - a_w))
    var_w   = 1 / (y_pw + a_w) + 1 / (y_nw + a_w)
    z_w     = delta_w / sqrt(var_w)

where y_pw, y_nw are the term's counts in positive and negative reviews, n_p, n_n the label's
total counts over all n-grams, and the prior a_w = a0 * (y_pw + y_nw) / (n_p + n_n) is the pooled
frequency scaled to a0 (--alpha0), which shrinks rare terms toward no difference. A term needs at
least --min-count reviews (both labels together) and must occur in at least --min-cats of the
categories (in --min-cat-reviews reviews each), so topic words (a product or a book's subject)
drop out and generic evaluation words stay.

Prints, per polarity, the top N candidates (highest z for positive, lowest for negative) as tab
separated lines: rank, term, z, positive reviews, negative reviews, categories, flags. Flags help
curation: `listed` = already a term of --lexicon; `covered:<t>` = contains a listed term of the
same polarity (matching already finds it); `negator:<t>` = contains a [negator] term (must be
listed whole or it is read as negator + word); `sub:<t>` = a shorter candidate already printed
above it covers it. The output is candidates only: nothing here writes the word list.

Usage:
  python3 scripts/mine_polarity_zh.py [--csv PATH] [--top N] [--min-count K] [--min-cats C]
      [--min-cat-reviews R] [--alpha0 A] [--lexicon models/polarity/zh.txt]
  e.g. python3 scripts/mine_polarity_zh.py --top 400 > /tmp/zh_candidates.tsv
Deterministic: the same CSV and options give the same output. Python 3 standard library only.
"""

import argparse
import collections
import csv
import math
import os
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CSV = os.path.normpath(
    os.path.join(HERE, '..', '..', 'shared', 'data', 'zh', 'online_shopping_10_cats.csv'))
DEFAULT_LEXICON = os.path.normpath(os.path.join(HERE, '..', 'models', 'polarity', 'zh.txt'))


def is_cjk(ch):
    o = ord(ch)
    return 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0xF900 <= o <= 0xFAFF


def cjk_runs(text):
    run = []
    for ch in text:
        if is_cjk(ch):
            run.append(ch)
        elif run:
            yield ''.join(run)
            run = []
    if run:
        yield ''.join(run)


def ngrams(text, lo=2, hi=4):
    out = set()
    for run in cjk_runs(text):
        for n in range(lo, hi + 1):
            for i in range(len(run) - n + 1):
                out.add(run[i:i + n])
    return out


def read_lexicon(path):
    sections = collections.defaultdict(set)
    section = None
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            if line.startswith('['):
                section = line.strip('[]')
                continue
            if section:
                sections[section].add(line)
    return sections


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--csv', default=DEFAULT_CSV)
    ap.add_argument('--top', type=int, default=300, help='candidates printed per polarity')
    ap.add_argument('--min-count', type=int, default=30, help='reviews containing the term, both labels')
    ap.add_argument('--min-cats', type=int, default=3, help='categories the term must occur in')
    ap.add_argument('--min-cat-reviews', type=int, default=2,
                    help='reviews a category needs to count as one the term occurs in')
    ap.add_argument('--alpha0', type=float, default=1000.0, help='prior strength (Dirichlet a0)')
    ap.add_argument('--lexicon', default=DEFAULT_LEXICON, help='word list used for the flags')
    args = ap.parse_args()

    counts = {'1': collections.Counter(), '0': collections.Counter()}
    per_cat = collections.defaultdict(collections.Counter)  # term -> category -> reviews
    used = {'1': 0, '0': 0}
    with open(args.csv, newline='', encoding='utf-8-sig') as f:
        for i, row in enumerate(csv.DictReader(f)):
            if i % 2 == 1:
                continue  # odd data rows are held out for measuring
            label, review = row.get('label'), row.get('review') or ''
            if label not in counts or not review:
                continue
            used[label] += 1
            grams = ngrams(review.lstrip('\ufeff'))
            counts[label].update(grams)
            for g in grams:
                per_cat[g][row['cat']] += 1

    n_pos = sum(counts['1'].values())
    n_neg = sum(counts['0'].values())
    n_all = n_pos + n_neg
    a0 = args.alpha0
    scored = []
    for term in set(counts['1']) | set(counts['0']):
        yp, yn = counts['1'][term], counts['0'][term]
        if yp + yn < args.min_count:
            continue
        cats = sum(1 for c in per_cat[term].values() if c >= args.min_cat_reviews)
        if cats < args.min_cats:
            continue
        a = a0 * (yp + yn) / n_all
        delta = (math.log((yp + a) / (n_pos + a0 - yp - a)) -
                 math.log((yn + a) / (n_neg + a0 - yn - a)))
        z = delta / math.sqrt(1 / (yp + a) + 1 / (yn + a))
        scored.append((z, term, yp, yn, cats))

    lex = read_lexicon(args.lexicon) if args.lexicon and os.path.exists(args.lexicon) else {}
    negators = sorted(lex.get('negator', ()), key=len, reverse=True)

    print(f"# mine_polarity_zh.py: {args.csv}: even rows only, {used['1']} positive and "
          f"{used['0']} negative reviews; n-grams 2-4 CJK; min-count {args.min_count}, "
          f"min-cats {args.min_cats} (>= {args.min_cat_reviews} reviews each), alpha0 {a0:g}; "
          f"{len(scored)} terms scored")
    for name, section, order in (('positive', 'positive', -1), ('negative', 'negative', 1)):
        listed = lex.get(section, set())
        ranked = sorted(scored, key=lambda s: (order * s[0], s[1]))[:args.top]
        print(f"[{name}]\trank\tterm\tz\tpos_reviews\tneg_reviews\tcats\tflags")
        shown = []
        for rank, (z, term, yp, yn, cats) in enumerate(ranked, 1):
            flags = []
            if term in listed:
                flags.append('listed')
            else:
                cover = [t for t in listed if t in term]
                if cover:
                    flags.append('covered:' + max(cover, key=len))
            neg = [t for t in negators if t in term]
            if neg:
                flags.append('negator:' + neg[0])
            sub = [t for t in shown if t in term]
            if sub:
                flags.append('sub:' + max(sub, key=len))
            shown.append(term)
            print(f"{name}\t{rank}\t{term}\t{z:.2f}\t{yp}\t{yn}\t{cats}\t{','.join(flags)}")
    return 0


if __name__ == '__main__':
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the output quietly
    sys.exit(main())
