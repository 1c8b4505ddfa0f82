#!/usr/bin/env python3
"""Crash-safety suite for revsum (issue 12): SIGKILL `revsum run` at deterministic points of ingest
and summarize, check the store after every kill, finish the job, and compare the store with a
clean run's, table by table.

Usage: tests/crash/crash_safety.py [BINARY [WORKDIR]] [--reviews N] [--keep]
  BINARY   default /work/main/build/revsum
  WORKDIR  default a new temp dir (deleted at the end unless --keep or a check failed)
Exit status 0 when every check passed, 1 otherwise (a kill point that could not be reached is a
failure too, never a skip). Runtime goal: under 3 minutes on the 2-core CI machine.

The job: `revsum run DUMP samples/*.jsonl samples/*.csv --db DB --embedder lexical -q`, DUMP being
--reviews (20,000) reviews from bench/gen_reviews.py (~7 MB; ingest ~1.5 s, summarize ~25 s).
 1. Two clean runs into fresh databases, side by side: both exit 0 and have the same fingerprint
    (else the comparison below would mean nothing: reported as "nondeterministic").
 2. One database, the same command started again and again, each attempt SIGKILLed at the next
    kill point (polled every few ms; the database is read through a read-only connection):
      open      as soon as the database file exists (schema creation; revsum checks its inputs,
                models and tokenizer before it creates the file)
      wal       the WAL file has grown past 1 MiB during this attempt (a batch is being written)
      batch     count(reviews) grew during this attempt (a committed ingest batch)
      ingest    count(reviews) grew by 6,000 during this attempt (mid-ingest)
      summarize scores or summaries exist for an unfinished run (its first committed batch)
      half      summaries of the unfinished run >= 40% of the clean run's
      late      summaries of the unfinished run >= 75% of the clean run's (the writer commits
                about every second, 3,000-3,500 summaries of this dump's 16,517 at a time on a
                2-core machine, so at 90% the threshold fell inside the final commit about half
                the time and the run ended before it could be killed; 75% leaves a batch's width)
    After every kill: PRAGMA integrity_check = ok, foreign_key_check empty, FTS5 integrity-check
    passes and sentences_fts holds exactly the sentence ids; every stored review (by content hash)
    equals the clean store's, with all its sentences (never half a review); a finished run has
    the clean run's scores and summaries.
 3. The same command once more, to completion: exit 0, integrity ok, and the store's fingerprint
    equals the clean one.
 4. An interrupted incremental run: 3,000 of the dump's reviews again with new text (so their
    products change), the command with that file added, SIGKILLed once its run has begun (the
    run row's started_at moved). The run it updates must stay finished and whole: every product
    still has its summary in the latest finished run (before, BeginRun marked it unfinished and
    every export said "no product summaries yet"), `export --format jsonl` exits 0; then the
    command to completion re-scores at most the changed products (before: all of them) and
    leaves every product summary covering exactly its product's reviews.
Fingerprints: per table, a sha256 of its rows sorted, by natural keys instead of ids: reviews by
content_hash, products by key, sources by path, sentences by (review content_hash, idx), scores by
(run key, scope, sentence key), summaries by (run key, scope, subject) with a review subject and
sentence_ids mapped to natural keys, sentences_fts rowid mapped to the sentence key. Excluded, as
they legitimately differ: every `id`, timestamps (*_at), and sources.ingested/duplicates and
source_parts.ingested/duplicates (the counts of the latest ingest, which after a kill finds part
of the dump already stored). Columns or
tables added later are included automatically (columns named *review_id, *sentence_id, run_id,
source_id, product_id are mapped to natural keys).
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIP_TABLES = {"sqlite_sequence", "sqlite_stat1", "sqlite_stat4"}
VOLATILE = {("sources", "ingested"), ("sources", "duplicates"),
            ("source_parts", "ingested"), ("source_parts", "duplicates")}


def connect(db, ro=True):
    uri = f"file:{db}?mode=ro" if ro else f"file:{db}"
    con = sqlite3.connect(uri, uri=True, timeout=30)
    con.text_factory = bytes
    return con


def run_key(key):
    """A run's natural key (runs.key, a few hundred bytes), shortened for the row fingerprints."""
    return "run:" + hashlib.sha256(key).hexdigest()[:16]


class Keys:
    """Maps a store's ids to natural keys."""

    def __init__(self, con):
        q = con.execute
        self.source = dict(q("SELECT id, path FROM sources"))
        self.product = dict(q("SELECT id, key FROM products"))
        self.review = dict(q("SELECT id, content_hash FROM reviews"))
        self.sentence = {i: (self.review.get(r), idx)
                         for i, r, idx in q("SELECT id, review_id, idx FROM sentences")}
        self.run = {i: run_key(k) for i, k in q("SELECT id, key FROM runs")}

    def map(self, column, value):
        if value is None:
            return None
        if column.endswith("review_id"):
            return ("review", self.review.get(value, f"missing review {value}"))
        if column.endswith("sentence_id"):
            return ("sentence", self.sentence.get(value, f"missing sentence {value}"))
        if column == "run_id":
            return ("run", self.run.get(value, f"missing run {value}"))
        if column == "source_id":
            return ("source", self.source.get(value, f"missing source {value}"))
        if column == "product_id":
            return ("product", self.product.get(value, f"missing product {value}"))
        return value

    def sentence_ids(self, value):
        text = value.decode() if isinstance(value, bytes) else str(value)
        try:
            ids = json.loads(text)
        except ValueError:
            ids = [int(x) for x in text.replace(",", " ").split()]
        return tuple(self.sentence.get(i, f"missing sentence {i}") for i in ids)


def table_rows(con, keys, table):
    """The rows of one table as tuples of natural values, in no particular order."""
    if table == "sentences_fts":
        # The rows (for an external-content table these are the content table's) and the index
        # itself: every term with its document and occurrence counts (fts5vocab), so an index that
        # lost or duplicated a sentence differs even when the content table is right.
        rows = [(keys.sentence.get(rowid, f"missing sentence {rowid}"), text)
                for rowid, text in con.execute("SELECT rowid, text FROM sentences_fts")]
        con.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_terms "
                    "USING fts5vocab(main, 'sentences_fts', 'row')")
        rows += [("term",) + t for t in con.execute("SELECT term, doc, cnt FROM temp.fts_terms")]
        return rows
    cols = [r[1].decode() if isinstance(r[1], bytes) else r[1]
            for r in con.execute(f"PRAGMA table_info({table})")]
    keep = [c for c in cols if c != "id" and not c.endswith("_at") and (table, c) not in VOLATILE]
    out = []
    for row in con.execute(f"SELECT {', '.join(keep)} FROM {table}"):
        rec = dict(zip(keep, row))
        mapped = []
        for c in keep:
            v = rec[c]
            if table == "summaries" and c == "sentence_ids":
                v = keys.sentence_ids(v)
            elif table == "summaries" and c == "subject" and rec.get("scope") == b"review":
                v = ("review", keys.review.get(int(v), f"missing review {v}"))
            else:
                v = keys.map(c, v)
            mapped.append((c, v))
        out.append(tuple(mapped))
    return out


def fingerprint(db, only=None):
    """{table: (row count, sha256 of the sorted rows, rows, set of row reprs)} for every table,
    plus the schema and its version."""
    con = connect(db)
    try:
        keys = Keys(con)
        names = [n.decode() for (n,) in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        fp = {}
        for t in names:
            if t in SKIP_TABLES or t.startswith("sentences_fts_") or (only and t not in only):
                continue
            rows = table_rows(con, keys, t)
            reprs = sorted(map(repr, rows))
            digest = hashlib.sha256("\n".join(reprs).encode()).hexdigest()[:16]
            fp[t] = (len(rows), digest, rows, reprs)
        schema = sorted(con.execute("SELECT type, name, sql FROM sqlite_master"))
        (version,), = con.execute("PRAGMA user_version")
        reprs = sorted(map(repr, schema)) + [f"user_version {version}"]
        fp["(schema)"] = (len(schema), hashlib.sha256("\n".join(reprs).encode()).hexdigest()[:16],
                          schema, reprs)
        return fp
    finally:
        con.close()


def diff(fp_a, fp_b, label_a="clean", label_b="crashed"):
    """Human-readable differences between two fingerprints (empty when equal)."""
    out = []
    for t in sorted(set(fp_a) | set(fp_b)):
        if t not in fp_a or t not in fp_b:
            out.append(f"table {t} only in {label_a if t in fp_a else label_b}")
            continue
        (na, ha, _, ra), (nb, hb, _, rb) = fp_a[t], fp_b[t]
        if ha == hb:
            continue
        sa, sb = set(ra), set(rb)
        only_a, only_b = sorted(sa - sb), sorted(sb - sa)
        msg = f"table {t}: {na} rows ({label_a}) vs {nb} ({label_b}); {len(only_a)} only in " \
              f"{label_a}, {len(only_b)} only in {label_b}"
        if not only_a and not only_b:
            msg += " (same rows, different multiplicity)"
        for r in only_a[:2]:
            msg += f"\n      {label_a}: {r[:400]}"
        for r in only_b[:2]:
            msg += f"\n      {label_b}: {r[:400]}"
        out.append(msg)
    return out


def count(db, sql):
    try:
        con = connect(db)
        try:
            return con.execute(sql).fetchone()[0] or 0
        finally:
            con.close()
    except sqlite3.Error:
        return None  # not created yet, or mid-migration


def wal_size(db):
    try:
        return os.path.getsize(db + "-wal")
    except OSError:
        return 0


UNFINISHED = "(SELECT id FROM runs WHERE finished_at IS NULL)"


def kill_points(clean_summaries):
    """(name, prepare(db) -> state, reached(db, state, seconds) -> bool)."""
    reviews = "SELECT count(*) FROM reviews"

    def start_reviews(db):
        return count(db, reviews) or 0

    return [
        ("open", lambda db: None, lambda db, s, t: os.path.exists(db)),
        ("wal", lambda db: None, lambda db, s, t: wal_size(db) > (1 << 20)),
        ("batch", start_reviews, lambda db, s, t: (count(db, reviews) or 0) > s),
        ("ingest", start_reviews, lambda db, s, t: (count(db, reviews) or 0) >= s + 6000),
        ("summarize", lambda db: None, lambda db, s, t: (
            count(db, f"SELECT (SELECT count(*) FROM scores WHERE run_id IN {UNFINISHED}) + "
                      f"(SELECT count(*) FROM summaries WHERE run_id IN {UNFINISHED})") or 0) > 0),
        ("half", lambda db: None, lambda db, s, t: (
            count(db, f"SELECT count(*) FROM summaries WHERE run_id IN {UNFINISHED}") or 0)
            >= 0.4 * clean_summaries),
        ("late", lambda db: None, lambda db, s, t: (
            count(db, f"SELECT count(*) FROM summaries WHERE run_id IN {UNFINISHED}") or 0)
            >= 0.75 * clean_summaries),
    ]


class Suite:
    def __init__(self, binary, work, reviews):
        self.binary, self.work, self.reviews = binary, work, reviews
        self.failures = []
        self.dump = os.path.join(work, "dump.jsonl")
        self.samples = sorted(glob.glob(os.path.join(ROOT, "samples", "*.jsonl"))) + \
            sorted(glob.glob(os.path.join(ROOT, "samples", "*.csv")))

    def fail(self, msg):
        self.failures.append(msg)
        print(f"FAIL {msg}", flush=True)

    def ok(self, msg):
        print(f"PASS {msg}", flush=True)

    def command(self, db):
        return [self.binary, "run", self.dump] + self.samples + \
            ["--db", db, "--embedder", "lexical", "-q"]

    def run_to_end(self, dbs, what):
        """Runs the command to completion into each of `dbs` at the same time (the job is mostly
        one thread); True when every one exited 0."""
        start = time.monotonic()
        procs = [subprocess.Popen(self.command(db), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE) for db in dbs]
        ok = True
        for db, p in zip(dbs, procs):
            try:
                _, err = p.communicate(timeout=170)
            except subprocess.TimeoutExpired:
                p.kill()
                _, err = p.communicate()
                self.fail(f"{what} ({os.path.basename(db)}): still running after 170 s")
                ok = False
                continue
            if p.returncode != 0:
                err = err.decode("utf-8", "replace").strip()[-300:]
                self.fail(f"{what} ({os.path.basename(db)}): exit code {p.returncode} ({err!r})")
                ok = False
        if ok:
            print(f"     {what}: exit 0 in {time.monotonic() - start:.1f} s", flush=True)
        return ok

    def check_store(self, db, what, clean_fp):
        """Consistency of a store after a kill, against the clean store."""
        if not os.path.exists(db):
            self.ok(f"{what}: no database file yet")
            return
        try:
            con = connect(db, ro=False)
            try:
                (version,), = con.execute("PRAGMA user_version")
                tables = con.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            finally:
                con.close()
        except sqlite3.Error as e:
            self.fail(f"{what}: cannot open the database: {e}")
            return
        if version == 0 and tables == 0:
            self.ok(f"{what}: empty database (killed before the schema was committed)")
            return
        if version == 0 or tables == 0:
            self.fail(f"{what}: half-created schema (user_version {version}, {tables} objects)")
            return
        try:
            con = connect(db, ro=False)  # opening recovers the WAL, as revsum's next open does
        except sqlite3.Error as e:
            self.fail(f"{what}: cannot open the database: {e}")
            return
        try:
            problems = []
            res = [r[0] for r in con.execute("PRAGMA integrity_check")]
            if res != [b"ok"]:
                problems.append(f"integrity_check: {res[:3]}")
            fk = con.execute("PRAGMA foreign_key_check").fetchall()
            if fk:
                problems.append(f"foreign_key_check: {len(fk)} rows, e.g. {fk[0]}")
            try:
                con.execute("INSERT INTO sentences_fts(sentences_fts) VALUES('integrity-check')")
            except sqlite3.Error as e:
                problems.append(f"FTS5 integrity-check: {e}")
            con.rollback()
            fts = {r for (r,) in con.execute("SELECT rowid FROM sentences_fts")}
            sents = {r for (r,) in con.execute("SELECT id FROM sentences")}
            if fts != sents:
                problems.append(f"sentences_fts has {len(fts - sents)} rows without a sentence and "
                                f"misses {len(sents - fts)} sentences")
        finally:
            con.close()
        fp = fingerprint(db, only=("reviews", "sentences", "scores", "summaries"))
        # Every stored review and its sentences are whole and equal the clean store's.
        clean_reviews = set(clean_fp["reviews"][3])
        bad = [r for r in fp["reviews"][3] if r not in clean_reviews]
        if bad:
            problems.append(f"{len(bad)} reviews differ from the clean store, e.g. {bad[0]:.200}")
        by_review = {}
        for r, text in zip(clean_fp["sentences"][2], map(repr, clean_fp["sentences"][2])):
            by_review.setdefault(dict(r)["review_id"], set()).add(text)
        got = {}
        for r, text in zip(fp["sentences"][2], map(repr, fp["sentences"][2])):
            got.setdefault(dict(r)["review_id"], set()).add(text)
        stored = {("review", dict(r)["content_hash"]) for r in fp["reviews"][2]}
        half = [k for k in stored if got.get(k, set()) != by_review.get(k, set())]
        if half:
            problems.append(f"{len(half)} reviews with missing or different sentences (half a "
                            f"review), e.g. {half[0]}")
        orphan = [k for k in got if k not in stored]
        if orphan:
            problems.append(f"{len(orphan)} sentence groups without their review")
        # A finished run is whole: the clean run's scores and summaries.
        con = connect(db)
        try:
            finished = {run_key(k) for (k,) in con.execute(
                "SELECT key FROM runs WHERE finished_at IS NOT NULL")}
        finally:
            con.close()
        for t in ("scores", "summaries"):
            mine = {repr(r) for r in fp[t][2] if dict(r)["run_id"][1] in finished}
            ref = {repr(r) for r in clean_fp[t][2] if dict(r)["run_id"][1] in finished}
            if mine != ref:
                problems.append(f"a finished run's {t} differ from the clean run's "
                                f"({len(ref - mine)} missing, {len(mine - ref)} extra)")
        if problems:
            self.fail(f"{what}: " + "; ".join(problems))
        else:
            n = fp["reviews"][0], fp["summaries"][0]
            self.ok(f"{what}: store consistent ({n[0]} reviews, {n[1]} summaries)")

    def kill_at(self, db, name, prepare, reached):
        state = prepare(db)
        start = time.monotonic()
        p = subprocess.Popen(self.command(db), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        while True:
            t = time.monotonic() - start
            if p.poll() is not None:
                err = p.stderr.read().decode("utf-8", "replace").strip()[-200:]
                self.fail(f"kill at {name}: the run ended (exit {p.returncode}) before the kill "
                          f"point was reached after {t:.2f} s {err!r}")
                return False
            if reached(db, state, t):
                break
            if t > 120:
                p.kill()
                p.wait()
                self.fail(f"kill at {name}: not reached in 120 s")
                return False
            time.sleep(0.003)
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        p.stderr.close()
        print(f"     killed at {name} after {t:.2f} s (signal {-p.returncode}); reviews "
              f"{count(db, 'SELECT count(*) FROM reviews')}, summaries "
              f"{count(db, 'SELECT count(*) FROM summaries')}, WAL {wal_size(db) >> 10} KiB",
              flush=True)
        return True

    def main(self):
        gen = os.path.join(ROOT, "bench", "gen_reviews.py")
        subprocess.run([sys.executable, gen, str(self.reviews), self.dump], check=True)
        clean, clean2, crashed = (os.path.join(self.work, n) for n in
                                  ("clean.db", "clean2.db", "crashed.db"))
        if not self.run_to_end([clean, clean2], "two clean runs, side by side"):
            return
        clean_fp = fingerprint(clean)
        d = diff(clean_fp, fingerprint(clean2), "clean", "clean2")
        if d:
            self.fail("nondeterministic: two clean runs differ:\n    " + "\n    ".join(d))
        else:
            self.ok("two clean runs have the same fingerprint")
        summaries = clean_fp["summaries"][0]
        for name, prepare, reached in kill_points(summaries):
            if self.kill_at(crashed, name, prepare, reached):
                self.check_store(crashed, f"after kill at {name}", clean_fp)
        if not self.run_to_end([crashed], "re-run after the kills"):
            return
        self.check_store(crashed, "after the final re-run", clean_fp)
        d = diff(clean_fp, fingerprint(crashed))
        if d:
            self.fail("store after kills + re-run != clean store:\n    " + "\n    ".join(d))
        else:
            self.ok("store after kills + re-run == clean store, table by table: " +
                    ", ".join(f"{t} {v[0]}" for t, v in sorted(clean_fp.items())))
        self.interrupted_incremental(crashed)

    def interrupted_incremental(self, db):
        extra = os.path.join(self.work, "changed.jsonl")
        with open(self.dump, encoding="utf-8") as src, open(extra, "w", encoding="utf-8") as out:
            for i, line in enumerate(src):
                if i >= 3000:
                    break
                record = json.loads(line)
                record["text"] += " Still using it a year later."
                out.write(json.dumps(record) + "\n")
        products = count(db, "SELECT count(*) FROM products")
        before = count(db, "SELECT max(id) FROM reviews")
        latest_start = "SELECT max(started_at) FROM runs"
        started_at = count(db, latest_start)
        command = self.command(db)
        command.insert(2, extra)
        p = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        begun = False
        t0 = time.monotonic()
        while p.poll() is None and time.monotonic() - t0 < 120:
            now = count(db, latest_start)
            if now is not None and now != started_at:
                begun = True
                break
            time.sleep(0.003)
        if not begun:
            p.kill()
            p.wait()
            self.fail(f"incremental kill: the run never began (exit {p.returncode})")
            return
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        changed = count(db, f"SELECT count(DISTINCT product_id) FROM reviews WHERE id > {before}")
        summarised = count(db, "SELECT count(*) FROM latest_summaries WHERE scope = 'product'")
        print(f"     killed the incremental run after {time.monotonic() - t0:.2f} s; "
              f"{changed} products changed", flush=True)
        if summarised != products:
            self.fail(f"incremental kill: {summarised} of {products} products have a summary in "
                      f"a finished run")
        export = subprocess.run([self.binary, "export", "--db", db, "--format", "jsonl",
                                 "--no-tokens"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        if export.returncode != 0:
            self.fail(f"incremental kill: export exits {export.returncode}: "
                      f"{export.stderr.decode('utf-8', 'replace')[-200:]!r}")
        # Without -q, for its closing line ("N products re-scored").
        done = subprocess.run([c for c in command if c != "-q"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
        err = (done.stdout + done.stderr).decode("utf-8", "replace")
        rescored = [int(x) for x in re.findall(r"(\d+) products re-scored", err)]
        if done.returncode != 0 or not rescored:
            self.fail(f"incremental re-run: exit {done.returncode} {err[-200:]!r}")
            return
        if rescored[0] > changed:
            self.fail(f"incremental re-run re-scored {rescored[0]} products; {changed} changed")
        stale = count(db, "SELECT count(*) FROM latest_summaries l JOIN summaries s ON "
                          "s.run_id = l.run_id AND s.scope = 'product' AND s.subject = l.subject "
                          "WHERE l.scope = 'product' AND s.reviews_covered != (SELECT count(*) "
                          "FROM reviews r JOIN products p ON p.id = r.product_id "
                          "WHERE p.key = s.subject)")
        if stale:
            self.fail(f"incremental re-run: {stale} product summaries do not cover their reviews")
        else:
            self.ok(f"interrupted incremental run: the finished run stayed readable; the re-run "
                    f"re-scored {rescored[0]} of {changed} changed products; every summary "
                    f"covers its product's reviews")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary", nargs="?", default="/work/main/build/revsum")
    ap.add_argument("workdir", nargs="?")
    ap.add_argument("--reviews", type=int, default=20000)
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    if not os.access(binary, os.X_OK):
        print(f"FAIL setup: {binary} is not an executable")
        return 1
    work = a.workdir or tempfile.mkdtemp(prefix="revsum-crash-")
    os.makedirs(work, exist_ok=True)
    start = time.monotonic()
    suite = Suite(binary, work, a.reviews)
    try:
        suite.main()
    except Exception as e:  # a suite error is a failure, never a skip
        suite.fail(f"suite error: {type(e).__name__}: {e}")
    print(f"\n{len(suite.failures)} failures in {time.monotonic() - start:.0f} s")
    if suite.failures or a.keep:
        print(f"work dir kept: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if suite.failures else 0


if __name__ == "__main__":
    sys.exit(main())
