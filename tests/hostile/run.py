#!/usr/bin/env python3
"""Hostile-input suite for revsum (issue 12): every hostile dump from gen_hostile.py through the
real binary and a real SQLite store, checking what a user relies on.

Usage: tests/hostile/run.py [BINARY [WORKDIR]] [--jobs N] [--only SUBSTRING] [--keep]
  BINARY   default /work/main/build/revsum
  WORKDIR  default a new temp dir (deleted at the end unless --keep or a check failed)
Exit status: 0 when every check of every input passed, 1 otherwise (also on any setup problem).

Per input (fresh database per input), the checks, numbered as in the report lines:
 (1) no crash: exit code in {0, 1, 3}, never a signal, no sanitizer/terminate message on stderr,
     no command over TIMEOUT_S seconds (killed and reported).
 (2) the ingest identity: stderr's "PATH: read N = ingested N (new N, already stored N) +
     rejected N" satisfies read == new + already stored + rejected and ingested == new + already
     stored (or: exit 1 with a read error that read.h documents, naming the file, and the store
     untouched); count(reviews) grew by `new`; count(rejects) did not decrease, grew by at most
     `rejected` and by at least 1 when something was rejected (a reject may be deduplicated by
     content); the exit code is 3 exactly when something was rejected (1 = the job did not run,
     which a bad dump must never cause); the first ingest reports the counts the case expects
     where the README or the format's standard leaves no doubt (gen_hostile.expectations: e.g. the
     valid row after a 17 MB field, every member of a multi-member gzip, a BOM'd first record),
     so no record is dropped silently; every reject keeps its raw bytes unless the reason is
     about the file itself (cannot open, truncated/corrupt gzip, read error).
 (3) nothing lost or duplicated on re-ingest: the same bytes under another path, then on stdin
     ("-" with the --format the extension implies), then through a pipe named by path
     (/dev/fd/N, what `<(cat dump)` gives): the same exit code and records read, every
     review "already stored", count(reviews) and count(rejects) unchanged (a reject's identity is
     its content, not the path it came from).
 (4) no control character from the data in any output: stdout+stderr of the three ingests,
     `stats`, `show --product` for each product (up to MAX_SHOW), `search`, and for inputs marked
     `export` also `summarize --embedder lexical` then `export --format text` and `markdown`:
     no byte 0x00-0x08, 0x0b-0x1f, 0x7f, no C1 (U+0080-U+009F), no bidi override or isolate
     (U+202A-U+202E, U+2066-U+2069), valid UTF-8; tab and newline are what the formats write.
     Markdown export (structured, every point fitting the budget): as many headings as products
     with points, as many "- " lines as points and "Also said" sentences in the JSON export (no
     forged "## " sections or bullets); text export: as many "- " lines too, each with exactly
     one "[citation]" (the data's brackets read as parentheses); no sentence of the JSON export
     holds a tag (markup that decoding entities makes is removed as markup).
 (5) peak memory: every ingest's peak RSS (ru_maxrss from wait4, the number GNU time -f %M
     prints) below PEAK_RSS_MB; every summarize and JSON export below SUMMARIZE_RSS_MB.

Bounds (measured on the 2-core CI machine with other work running):
  PEAK_RSS_MB = 600. Ordinary dumps need 27-60 MB (SQLite's page cache dominates); a 20 MB line is
  rejected in ~43 MB, a 17 MB quoted CSV field in ~56 MB; the gzip bomb (120 records of 12 MB,
  ~3 MB on disk) now peaks at ~91 MB in ~17 s, where the build of 2 Dec 22:39 took 3.6 GB and
  233 s. 600 MB leaves room for a few 16 MiB records in flight, not for a decompressed dump.
  SUMMARIZE_RSS_MB = 1000: the 552,000-sentence product (sampled, run.h kMaxScopeSentences) peaks
  at ~0.55 GB (1.57 GB before), 64 threads on 100 small products at ~0.3 GB (4.8 GB on 3,000 hotel
  reviews before: a model and scratch per worker).
  TIMEOUT_S = 90 per command: an ordinary input takes well under a second.
  Runtime: ~125 s for all 242 inputs with 2 workers (goal: under 4 minutes).
"""
import argparse
import json
import concurrent.futures
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_hostile  # noqa: E402

PEAK_RSS_MB = 600
SUMMARIZE_RSS_MB = 1000
TIMEOUT_S = 90
MAX_SHOW = 12
SANITIZER_MARKS = [b"AddressSanitizer", b"UndefinedBehaviorSanitizer", b"LeakSanitizer",
                   b"ThreadSanitizer", b"MemorySanitizer", b"runtime error:",
                   b"terminate called", b"Segmentation fault", b"core dumped"]
FILE_LEVEL_REASONS = ("cannot open", "truncated gzip", "corrupt gzip", "read error")
# What read.h documents as a ReadError: the whole dump is unreadable as asked, the command exits 1
# naming the file, and the store must be left untouched.
READ_ERRORS = [re.compile(p) for p in (
    rb"no text column in the header", rb"no column \S+ for the \w+ in the header",
    rb"no record has the \w+ field", rb"cannot open", rb"is a directory", rb"Parquet")]
IDENTITY = re.compile(rb"^(.*): read ([\d,]+) = ingested ([\d,]+) \(new ([\d,]+), already stored "
                      rb"([\d,]+)\) \+ rejected ([\d,]+)$")


class Result:
    def __init__(self, rc, out, err, maxrss_kb, seconds, timed_out):
        self.rc, self.out, self.err = rc, out, err
        self.maxrss_kb, self.seconds, self.timed_out = maxrss_kb, seconds, timed_out


def feed_pipe(path):
    """A pipe whose write end a thread fills with the bytes of `path`: (read fd, thread). The
    child reads it as /dev/fd/N, as a shell user's `<(cat dump)` gives it."""
    rfd, wfd = os.pipe()

    def write():
        try:
            with open(path, "rb") as src, os.fdopen(wfd, "wb") as dst:
                shutil.copyfileobj(src, dst)
        except BrokenPipeError:
            pass
    t = threading.Thread(target=write, daemon=True)
    t.start()
    return rfd, t


def run(cmd, stdin_path=None, timeout=TIMEOUT_S, pass_fds=()):
    """Runs cmd with stdout/stderr to files; returns its exit code (negative = signal), output,
    and peak RSS from wait4. Kills it after `timeout` seconds (before reaping, so no pid reuse)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            open(stdin_path or os.devnull, "rb") as inp:
        start = time.monotonic()
        p = subprocess.Popen(cmd, stdin=inp, stdout=out, stderr=err, pass_fds=pass_fds)
        for fd in pass_fds:
            os.close(fd)
        timed_out = False
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if not timed_out and time.monotonic() - start > timeout:
                timed_out = True
                p.kill()
            time.sleep(0.01)
        p.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        return Result(p.returncode, out.read(), err.read(), usage.ru_maxrss, seconds, timed_out)


def db_query(db, sql, args=()):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)
    try:
        con.text_factory = bytes
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def db_counts(db):
    if not os.path.exists(db):
        return 0, 0
    (n_rev,), = db_query(db, "SELECT count(*) FROM reviews")
    (n_rej,), = db_query(db, "SELECT count(*) FROM rejects")
    return n_rev, n_rej


# A start or end tag, comment or declaration: cleaned review text never holds one.
TAG = re.compile(r"<[A-Za-z/!?][^<>]*>")


def bad_output(data):
    """The first forbidden character in `data`, described, or None."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"invalid UTF-8 at byte {e.start} ({data[e.start:e.start + 4]!r})"
    for i, ch in enumerate(text):
        cp = ord(ch)
        if ((cp < 0x20 and cp not in (0x09, 0x0A)) or 0x7F <= cp <= 0x9F or
                0x202A <= cp <= 0x202E or 0x2066 <= cp <= 0x2069):
            context = text[max(0, i - 20):i + 10]
            return f"U+{cp:04X} at char {i} near {context!r}"
    return None


class Case:
    def __init__(self, spec, binary, gen_dir, work):
        self.spec = spec
        self.binary = binary
        self.input = os.path.join(gen_dir, spec["file"])
        self.work = os.path.join(work, spec["name"])
        os.makedirs(self.work, exist_ok=True)
        self.db = os.path.join(self.work, "store.db")
        self.failures = []
        self.peak_kb = 0
        self.summarize_peak_kb = 0
        self.seconds = 0.0

    def fail(self, check, msg):
        self.failures.append(f"({check}) {msg}")

    def call(self, what, args, stdin_path=None, output_check=True, pass_fds=()):
        r = run([self.binary] + args, stdin_path, pass_fds=pass_fds)
        self.seconds += r.seconds
        if r.timed_out:
            self.fail(1, f"{what}: killed after {TIMEOUT_S} s (peak RSS {r.maxrss_kb // 1024} MB)")
        elif r.rc < 0 or r.rc > 128:
            self.fail(1, f"{what}: died with {'signal ' + str(-r.rc) if r.rc < 0 else r.rc}")
        elif r.rc not in (0, 1, 3):
            self.fail(1, f"{what}: exit code {r.rc}")
        for mark in SANITIZER_MARKS:
            if mark in r.err:
                self.fail(1, f"{what}: stderr has {mark.decode()!r}")
        if output_check:
            for stream, data in (("stdout", r.out), ("stderr", r.err)):
                problem = bad_output(data)
                if problem:
                    self.fail(4, f"{what} {stream}: {problem}")
        return r

    def ingest(self, what, path, extra=(), first=False):
        before = db_counts(self.db)
        pass_fds, feeder = (), None
        if path == "pipe":
            rfd, feeder = feed_pipe(self.input)
            path, pass_fds = f"/dev/fd/{rfd}", (rfd,)
        r = self.call(what, ["ingest", path, "--db", self.db] + list(extra) + self.spec["args"],
                      stdin_path=self.input if path == "-" else None, pass_fds=pass_fds)
        if feeder:
            feeder.join(timeout=5)
        self.peak_kb = max(self.peak_kb, r.maxrss_kb)
        if r.maxrss_kb > PEAK_RSS_MB * 1024:
            self.fail(5, f"{what}: peak RSS {r.maxrss_kb // 1024} MB > {PEAK_RSS_MB} MB")
        if r.timed_out or r.rc < 0:
            return r, None, before, before
        after = db_counts(self.db)
        counts = None
        for line in r.err.split(b"\n"):
            m = IDENTITY.match(line)
            if m and m.group(1) == path.encode():
                counts = [int(g.replace(b",", b"")) for g in m.groups()[1:]]
        if counts is None and r.rc == 1:
            msg = r.err.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
            shown = path if path != "-" else "-:"
            if (any(p.search(r.err) for p in READ_ERRORS) and shown in msg[0]):
                if after != before:
                    self.fail(2, f"{what}: exit 1 (read error) but the store changed: "
                                 f"{before} -> {after}")
                return r, None, before, after
        if counts is None:
            tail = r.err.decode("utf-8", "replace").strip().splitlines()[-1:] or ["(nothing)"]
            self.fail(2, f"{what}: exit {r.rc}, no identity line on stderr; last: {tail[0][:160]!r}")
            return r, None, before, after
        read, ingested, new, already, rejected = counts
        if read != new + already + rejected or ingested != new + already:
            self.fail(2, f"{what}: read {read} != new {new} + already stored {already} + "
                         f"rejected {rejected} (ingested {ingested})")
        if after[0] - before[0] != new:
            self.fail(2, f"{what}: reviews grew by {after[0] - before[0]}, new = {new}")
        d_rej = after[1] - before[1]
        if d_rej < 0 or d_rej > rejected or (first and rejected > 0 and d_rej == 0):
            self.fail(2, f"{what}: rejects grew by {d_rej}, rejected = {rejected}")
        if first:
            got = {"read": read, "new": new, "rejected": rejected}
            for k, v in self.spec.get("expect", {}).items():
                if got[k] != v:
                    self.fail(2, f"{what}: {k} {got[k]}, expected {v} "
                                 f"(read {read}, new {new}, rejected {rejected})")
        if (r.rc == 3) != (rejected > 0) or r.rc == 1:
            self.fail(2, f"{what}: exit code {r.rc} with {rejected} rejected")
        return r, counts, before, after

    def check_summarize_rss(self, what, r):
        self.summarize_peak_kb = max(self.summarize_peak_kb, r.maxrss_kb)
        if r.rc == 0 and r.maxrss_kb > SUMMARIZE_RSS_MB * 1024:
            self.fail(5, f"{what}: peak RSS {r.maxrss_kb // 1024} MB > {SUMMARIZE_RSS_MB} MB")

    def check_rejects_raw(self):
        rows = db_query(self.db, "SELECT line, reason, length(raw) FROM rejects "
                                 "WHERE raw IS NULL OR length(raw) = 0")
        for line, reason, _ in rows:
            if not reason.decode("utf-8", "replace").startswith(FILE_LEVEL_REASONS):
                self.fail(2, f"reject at line {line} ({reason[:60]!r}) has no raw bytes")
                break

    def reingest(self, what, path, first_rc, first_counts, extra=()):
        before = db_counts(self.db)
        r, counts, _, after = self.ingest(what, path, extra)
        if r.timed_out or r.rc < 0:
            return
        if r.rc != first_rc:
            self.fail(3, f"{what}: exit code {r.rc}, first ingest {first_rc}")
        if after[0] != before[0]:
            self.fail(3, f"{what}: reviews {before[0]} -> {after[0]}")
        if after[1] != before[1]:
            self.fail(3, f"{what}: rejects {before[1]} -> {after[1]} (same bad records again)")
        if counts and first_counts:
            if counts[0] != first_counts[0]:
                self.fail(3, f"{what}: read {counts[0]} records, first ingest read {first_counts[0]}")
            if counts[2] != 0:
                self.fail(3, f"{what}: {counts[2]} new reviews stored by the same bytes")

    def outputs(self):
        db = self.db
        if not os.path.exists(db):
            return
        exported = False
        if self.spec["export"]:
            r = self.call("summarize", ["summarize", "--db", db, "-q"] + self.spec["summarize"])
            self.check_summarize_rss("summarize", r)
            exported = True
        self.call("stats", ["stats", "--db", db])
        products = [k for (k,) in db_query(db, "SELECT key FROM products ORDER BY id")]
        for key in products[:MAX_SHOW]:
            if b"\0" in key:
                continue  # cannot be passed in argv; export covers it
            self.call(f"show {key[:30]!r}", ["show", "--db", db, "--product", "--", key])
        self.call("search", ["search", "--db", db, self.spec["search"]])
        if exported:
            # The structured export with a budget every point fits: one bullet per point and per
            # "Also said" sentence, as the JSON export lists them.
            r = self.call("export json", ["export", "--db", db, "--format", "json",
                                          "--budget", "1000000s"], output_check=False)
            self.check_summarize_rss("export json", r)
            try:
                exported_json = json.loads(r.out) if r.rc == 0 else []
            except ValueError as e:
                self.fail(4, f"export json does not parse: {e}")
                exported_json = []
            expect = (len(exported_json),
                      sum(len(p["points"]) + len(p["also_said"]) for p in exported_json))
            for p in exported_json:
                for x in p["points"] + p["also_said"]:
                    if TAG.search(x["text"]):
                        self.fail(4, f"export json: markup in a sentence: {x['text'][:80]!r}")
            for fmt in ("text", "markdown"):
                r = self.call(f"export {fmt}", ["export", "--db", db, "--format", fmt,
                                                "--budget", "1000000s"])
                if r.rc != 0 or not expect[0]:
                    continue
                lines = r.out.decode("utf-8", "replace").split("\n")
                bullets = sum(1 for x in lines if x.startswith("- "))
                if bullets != expect[1]:
                    self.fail(4, f"export {fmt}: {bullets} '- ' lines, the JSON export has "
                                 f"{expect[1]} points and also-said sentences (forged bullets)")
                if fmt == "text":
                    forged = [x for x in lines if x.startswith("- ") and x.count("[") != 1]
                    if forged:
                        self.fail(4, f"export text: a bullet without exactly one citation "
                                     f"(forged): {forged[0][:80]!r}")
                if fmt == "markdown":
                    heads = sum(1 for x in lines if re.match(r"^ {0,3}#{1,6}(\s|$)", x))
                    if heads != expect[0]:
                        self.fail(4, f"export markdown: {heads} headings for {expect[0]} product "
                                     f"summaries (forged sections)")

    def run(self):
        r, counts, _, _ = self.ingest("ingest", self.input, first=True)
        if r.timed_out or r.rc < 0 or not os.path.exists(self.db):
            return self
        self.check_rejects_raw()
        copy_dir = os.path.join(self.work, "copy")
        os.makedirs(copy_dir, exist_ok=True)
        copy = os.path.join(copy_dir, "renamed_" + self.spec["file"])
        shutil.copyfile(self.input, copy)
        self.reingest("re-ingest copy", copy, r.rc, counts)
        self.reingest("re-ingest stdin", "-", r.rc, counts, ["--format", self.spec["format"]])
        self.reingest("re-ingest pipe", "pipe", r.rc, counts, ["--format", self.spec["format"]])
        self.check_rejects_raw()
        self.outputs()
        return self


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary", nargs="?", default="/work/main/build/revsum")
    ap.add_argument("workdir", nargs="?")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", help="run only inputs whose name contains this")
    ap.add_argument("--keep", action="store_true", help="keep the work dir")
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    if not os.access(binary, os.X_OK):
        print(f"FAIL setup: {binary} is not an executable", flush=True)
        return 1
    work = a.workdir or tempfile.mkdtemp(prefix="revsum-hostile-")
    os.makedirs(work, exist_ok=True)
    start = time.monotonic()
    gen_dir = os.path.join(work, "inputs")
    cases = gen_hostile.generate(gen_dir)
    if a.only:
        cases = [c for c in cases if a.only in c["name"]]
    print(f"{len(cases)} hostile inputs generated in {time.monotonic() - start:.1f} s "
          f"({gen_dir}); binary {binary}", flush=True)
    cases.sort(key=lambda c: not c["heavy"])  # the long ones first, so they overlap the rest
    lock = threading.Lock()
    results = []

    def one(spec):
        try:
            c = Case(spec, binary, gen_dir, os.path.join(work, "runs")).run()
        except Exception as e:  # a bug in the suite or an unreadable store is a failure too
            c = Case(spec, binary, gen_dir, os.path.join(work, "runs"))
            c.fail(0, f"suite error: {type(e).__name__}: {e}")
        with lock:
            status = "FAIL" if c.failures else "PASS"
            line = f"{status} {spec['kind']} [{spec['name']}]"
            line += f" ({c.seconds:.1f} s, {c.peak_kb // 1024} MB"
            if c.summarize_peak_kb:
                line += f", summarize/export {c.summarize_peak_kb // 1024} MB"
            line += ")"
            if c.failures:
                line += ": " + "; ".join(c.failures)
            print(line, flush=True)
            results.append(c)

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        list(pool.map(one, cases))

    failed = [c for c in results if c.failures]
    by_check = {}
    for c in failed:
        for f in c.failures:
            by_check.setdefault(f[:3], set()).add(c.spec["name"])
    elapsed = time.monotonic() - start
    print(f"\n{len(results) - len(failed)}/{len(results)} inputs passed in {elapsed:.0f} s; peak "
          f"ingest RSS {max((c.peak_kb for c in results), default=0) // 1024} MB "
          f"(bound {PEAK_RSS_MB} MB), summarize/export "
          f"{max((c.summarize_peak_kb for c in results), default=0) // 1024} MB "
          f"(bound {SUMMARIZE_RSS_MB} MB)")
    for check in sorted(by_check):
        names = sorted(by_check[check])
        print(f"  check {check}: {len(names)} inputs: {' '.join(names)}")
    if failed or a.keep:
        print(f"work dir kept: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
