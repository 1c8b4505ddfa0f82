#!/usr/bin/env python3
"""The report page as a person sees it: rendered in headless Chromium, checked against the store.

    python3 tests/report/render.py build/revsum

For samples/, a hostile dump and (when ../shared exists; under CI=true it must) the 酒店 category
of the Chinese shopping dump, it builds a store with `revsum run`, writes the page with
`revsum report`, loads it from file:// in headless Chromium driven over the DevTools protocol
(--remote-debugging-pipe: NUL-terminated JSON on file descriptors 3 and 4), and fails on:
  - any console error, uncaught exception or network request (the page is self-contained);
  - a product, point or share of the store that the DOM does not show as stored (sqlite3);
  - a click on a point that does not show its evidence, each member sentence highlighted at
    its stored code-point offsets into the review;
  - Chinese rendered without a CJK font;
  - hostile strings (</script>, <img onerror>, <svg onload>, bidi overrides) that inject any
    element or run any script.
Screenshots go beside the binary (build/report-*.png). Only python3's standard library is used.
"""
import base64
import csv
import fcntl
import glob
import json
import os
import select
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import unicodedata
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FAILURES = []


def fail(message):
    FAILURES.append(message)
    print("FAIL: " + message, flush=True)


def check(condition, message):
    if not condition:
        fail(message)
    return condition


def _above_nine(fd):
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return moved


class Chromium:
    """Headless Chromium with the DevTools protocol over a pipe (fd 3: commands in, fd 4: out)."""

    def __init__(self, profile):
        binary = shutil.which("chromium") or shutil.which("chromium-browser")
        if not binary:
            raise SystemExit("render.py: chromium not found (scripts/setup installs it)")
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        # The child's ends move above 9, so that placing them on 3 and 4 never clobbers one.
        to_child_r, from_child_w = (_above_nine(to_child_r), _above_nine(from_child_w))
        flags = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--remote-debugging-pipe", "--user-data-dir=" + profile, "--no-first-run",
                 "--no-default-browser-check", "--disable-extensions", "--disable-sync",
                 "--disable-background-networking", "--disable-component-update",
                 "--hide-scrollbars", "--mute-audio", "about:blank"]
        # The shell puts the pipe ends on descriptors 3 and 4, closes the originals, and execs.
        script = 'exec "$0" "$@" 3<&%d 4>&%d %d<&- %d>&-' % (
            to_child_r, from_child_w, to_child_r, from_child_w)
        self.log = open(os.path.join(profile, "chromium.log"), "wb")
        self.proc = subprocess.Popen(["bash", "-c", script, binary] + flags,
                                     pass_fds=(to_child_r, from_child_w),
                                     stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        os.close(to_child_r)
        os.close(from_child_w)
        self.w, self.r = to_child_w, from_child_r
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except Exception:  # the browser may already be gone; it is killed below
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.w)
        os.close(self.r)
        self.log.close()

    def _read_message(self, deadline):
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no message from chromium")
            ready, _, _ = select.select([self.r], [], [], left)
            if ready:
                chunk = os.read(self.r, 1 << 20)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe (see its log in the profile)")
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=None, timeout=60):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self.w, data):]
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            self.events.append(reply)

    def wait_event(self, method, session, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            for i, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    return self.events.pop(i)
            self.events.append(self._read_message(deadline))


class Page:
    """One tab: loads a file, collects errors and requests, evaluates, clicks, screenshots."""

    def __init__(self, browser, width=1280, height=900):
        self.b = browser
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.s = browser.send("Target.attachToTarget",
                              {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network", "DOM", "CSS"):
            self.send(domain + ".enable")
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.url = None

    def send(self, method, params=None, timeout=60):
        return self.b.send(method, params, self.s, timeout)

    def load(self, path):
        """Navigates to the file; returns the wall time to the load event, in seconds."""
        self.url = "file://" + urllib.parse.quote(os.path.abspath(path))
        start = time.monotonic()
        self.send("Page.navigate", {"url": self.url})
        self.b.wait_event("Page.loadEventFired", self.s, timeout=120)
        return time.monotonic() - start

    def problems(self):
        """Console errors, exceptions and network requests other than the page itself."""
        out, keep = [], []
        for event in self.b.events:
            if event.get("sessionId") != self.s:
                keep.append(event)
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                out.append("exception: %s" % details.get("exception", {}).get(
                    "description", details.get("text")))
            elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
                out.append("console.%s: %s" % (params["type"], " ".join(
                    str(a.get("value", a.get("description"))) for a in params["args"])))
            elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
                out.append("log: %s" % params["entry"]["text"])
            elif method == "Network.requestWillBeSent":
                url = params["request"]["url"]
                if url != self.url:
                    out.append("network request: %s" % url[:200])
        self.b.events = keep
        return out

    def eval(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            raise RuntimeError("evaluate: %s" % result["exceptionDetails"])
        return result["result"].get("value")

    def click(self, selector):
        """Scrolls the element into view and clicks its centre with real mouse events."""
        rect = self.eval("""(() => { const e = document.querySelector(%s);
            if (!e) return null; e.scrollIntoView({block: 'center'});
            const r = e.getBoundingClientRect();
            return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()""" % json.dumps(selector))
        if rect is None:
            raise RuntimeError("no element " + selector)
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": rect["x"], "y": rect["y"],
                                                   "button": "left", "clickCount": 1})

    def fonts(self, selector):
        """The platform fonts Chromium used for the text of the element."""
        root = self.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = self.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        if not node:
            return []
        return [f["familyName"] for f in self.send("CSS.getPlatformFontsForNode",
                                                   {"nodeId": node})["fonts"]]

    def screenshot(self, path, full=False):
        params = {"format": "png"}
        if full:
            size = self.send("Page.getLayoutMetrics")["cssContentSize"]
            params["clip"] = {"x": 0, "y": 0, "width": size["width"],
                              "height": min(size["height"], 6000), "scale": 1}
            params["captureBeyondViewport"] = True
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.send("Page.captureScreenshot", params)["data"]))


def run(cmd, ok=(0,)):
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode not in ok:
        raise SystemExit("render.py: %s exited %d:\n%s" % (" ".join(cmd), result.returncode,
                                                         result.stderr))
    return result


def build_store(revsum, inputs, db, extra=()):
    run([revsum, "run"] + inputs + ["--db", db, "-q"] + list(extra), ok=(0, 3))


def write_report(revsum, db, html):
    run([revsum, "report", "--db", db, "-o", html])
    return os.path.getsize(html)


def store_points(db):
    con = sqlite3.connect("file:%s?mode=ro" % urllib.parse.quote(db), uri=True)
    products = [r[0] for r in con.execute(
        "SELECT p.key FROM products p JOIN reviews r ON r.product_id = p.id GROUP BY p.id")]
    points = {}
    for product, point_id, share, text, members in con.execute(
            "SELECT product, point_id, share, text, members FROM product_points "
            "ORDER BY product, idx"):
        points.setdefault(product, []).append(
            {"id": point_id, "share": share, "text": text, "members": members})
    con.close()
    return products, points


DOM_POINTS = """(() => Array.from(document.querySelectorAll('section.product')).map(s => ({
  key: s.dataset.product,
  heading: s.querySelector('h2').textContent,
  points: Array.from(s.querySelectorAll('li.point')).map(li => ({
    id: +li.dataset.pointId, share: +li.dataset.share,
    pct: li.querySelector('.pct').textContent, text: li.querySelector('.ptext').textContent,
    visible: li.getBoundingClientRect().height > 0}))})))()"""


def shown_key(key):
    """A product key as the page shows it (escape.h ShowInvisibles): default-ignorable code points
    and non-ASCII spaces as \\uXXXX, so that look-alike keys read differently."""
    def invisible(c):
        o = ord(c)
        return (unicodedata.category(c) == "Cf" or (c.isspace() and o > 0x7F) or
                0xFE00 <= o <= 0xFE0F or 0xE0000 <= o <= 0xE0FFF or 0x180B <= o <= 0x180F or
                o in (0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0))
    return "".join(("\\u%04x" % ord(c) if ord(c) <= 0xFFFF else "\\U%08x" % ord(c))
                   if invisible(c) else c for c in key)


def check_dom_against_store(page, db, label):
    products, points = store_points(db)
    dom = page.eval(DOM_POINTS)
    by_key = {p["key"]: p for p in dom}
    check(len(dom) == len(products),
          "%s: %d product sections for %d products" % (label, len(dom), len(products)))
    for product in products:
        section = by_key.get(product)
        if not check(section is not None, "%s: product %r missing" % (label, product)):
            continue
        check(section["heading"] == shown_key(product), "%s: heading %r != %r" % (
            label, section["heading"], shown_key(product)))
        shown = {p["id"]: p for p in section["points"]}
        want = points.get(product, [])
        check(len(shown) == len(want), "%s: %r shows %d points, the store has %d" % (
            label, product, len(shown), len(want)))
        for point in want:
            got = shown.get(point["id"])
            if not check(got is not None, "%s: point %d of %r missing" % (
                    label, point["id"], product)):
                continue
            check(got["visible"], "%s: point %d not visible" % (label, point["id"]))
            check(got["text"] == point["text"], "%s: point %d text %r != %r" % (
                label, point["id"], got["text"], point["text"]))
            check(abs(got["share"] - point["share"]) < 1e-12, "%s: point %d share %r != %r" % (
                label, point["id"], got["share"], point["share"]))
            pct = "%.1f%%" % (100 * point["share"])
            check(got["pct"] == pct, "%s: point %d shows %r, the store %r" % (
                label, point["id"], got["pct"], pct))
    return sum(len(v) for v in points.values())


def check_evidence(page, db, label):
    """Clicks the point with most members and checks its evidence against the store."""
    _, points = store_points(db)
    best = max((p for v in points.values() for p in v), key=lambda p: p["members"])
    selector = 'li.point[data-point-id="%d"]' % best["id"]
    check(page.eval("document.querySelectorAll('li.evidence').length") == 0,
          "%s: evidence shown before any click" % label)
    page.click(selector)
    items = page.eval("""(() => { const li = document.querySelector(%s).nextElementSibling;
        if (!li || !li.classList.contains('evidence')) return null;
        return {visible: li.getBoundingClientRect().height > 0,
                expanded: document.querySelector(%s).getAttribute('aria-expanded'),
                items: Array.from(li.querySelectorAll('.ev-item')).map(e => ({
                  sentence: +e.dataset.sentence,
                  mark: e.querySelector('mark').textContent}))}; })()""" % (
        json.dumps(selector), json.dumps(selector)))
    if not check(items is not None, "%s: clicking point %d shows no evidence" % (
            label, best["id"])):
        return best
    check(items["visible"] and items["expanded"] == "true",
          "%s: evidence of point %d not visible" % (label, best["id"]))
    check(len(items["items"]) == min(best["members"], 20), "%s: %d evidence items for %d members"
          % (label, len(items["items"]), best["members"]))
    con = sqlite3.connect("file:%s?mode=ro" % urllib.parse.quote(db), uri=True)
    for item in items["items"]:
        member, span = con.execute(
            "SELECT (SELECT count(*) FROM point_members WHERE point_id = ?1 AND sentence_id = ?2),"
            " substr(r.text, s.begin + 1, s.end - s.begin) FROM sentences s "
            "JOIN reviews r ON r.id = s.review_id WHERE s.id = ?2",
            (best["id"], item["sentence"])).fetchone()
        check(member == 1, "%s: sentence %d is not a member of point %d" % (
            label, item["sentence"], best["id"]))
        mark = item["mark"]
        if mark.endswith("\u2026") and len(span) > 1200:
            check(span.startswith(mark[:-1]), "%s: cut highlight of %d" % (label, item["sentence"]))
        else:
            check(mark == span, "%s: sentence %d highlights %r, stored offsets give %r" % (
                label, item["sentence"], mark, span))
    con.close()
    return best


def check_attention(page, label):
    info = page.eval("""(() => { const v = document.querySelector('.att-view');
        if (!v) return null;
        return {rows: v.querySelectorAll('tbody tr').length,
                heads: v.querySelectorAll('th.hh').length,
                cells: v.querySelectorAll('td.hc').length,
                legend: Array.from(v.closest('.attention').querySelectorAll('dl.legend dt'))
                    .map(dt => dt.textContent),
                headNames: Array.from(v.querySelectorAll('th.hh')).map(th => th.title),
                options: document.querySelector('.att-select').options.length}; })()""")
    if check(info is not None, "%s: no attention view" % label):
        check(info["rows"] > 0 and info["heads"] > 0 and info["cells"] == info["rows"] *
              info["heads"], "%s: attention heatmap incomplete: %r" % (label, info))
        wanted = {"aspect:X" if h.startswith("aspect:") else h for h in info["headNames"]}
        check(wanted | {"final"} == set(info["legend"]), "%s: legend %r for heads %r" % (
            label, info["legend"], info["headNames"]))
    # Choosing another review redraws the view.
    page.eval("""(() => { const s = document.querySelector('.att-select');
        if (s.options.length > 1) { s.selectedIndex = 1; s.dispatchEvent(new Event('change')); }
        })()""")


def check_cjk_font(page, product, label):
    selector = 'section.product[data-product="%s"] h2' % product
    fonts = page.fonts(selector)
    check(any("CJK" in f or "Droid Sans Fallback" in f or "WenQuanYi" in f for f in fonts),
          "%s: %r drawn with %r, no CJK font (install fonts-noto-cjk)" % (label, product, fonts))


def timing(page):
    return page.eval("""(() => { const n = performance.getEntriesByType('navigation')[0];
        const p = performance.getEntriesByName('first-contentful-paint')[0];
        return {load: n.loadEventEnd, dom: n.domContentLoadedEventEnd,
                fcp: p ? p.startTime : null}; })()""")


def render_samples(browser, revsum, work, out_dir):
    db = os.path.join(work, "samples.db")
    inputs = sorted(glob.glob(os.path.join(ROOT, "samples", "*.jsonl")) +
                    glob.glob(os.path.join(ROOT, "samples", "*.csv")))
    build_store(revsum, inputs, db)
    html = os.path.join(work, "samples.html")
    size = write_report(revsum, db, html)
    page = Page(browser)
    seconds = page.load(html)
    points = check_dom_against_store(page, db, "samples")
    page.screenshot(os.path.join(out_dir, "report-samples.png"))
    check_cjk_font(page, "酒店", "samples")
    best = check_evidence(page, db, "samples")
    page.screenshot(os.path.join(out_dir, "report-samples-evidence.png"))
    # An evidence review that is in the attention sample links to its attention view.
    review = page.eval("""(() => { const a = document.querySelector('li.evidence a.to-attention');
        return a ? +a.closest('.ev-item').dataset.review : null; })()""")
    if check(review is not None, "samples: no evidence review links to the attention view"):
        page.click("li.evidence a.to-attention")
        meta = page.eval("""document.querySelector('li.evidence').closest('section.product')
            .querySelector('.att-meta').textContent""")
        check(meta.startswith("review %d " % review),
              "samples: the attention link shows %r, not review %d" % (meta, review))
    page.click('li.point[data-point-id="%d"]' % best["id"])  # a second click hides the evidence
    page.eval("document.querySelector('.attention').scrollIntoView({block: 'start'})")
    check_attention(page, "samples")
    page.screenshot(os.path.join(out_dir, "report-samples-attention.png"))
    # The click above, on the point again, hid its evidence.
    check(page.eval("document.querySelectorAll('li.evidence').length") == 0,
          "samples: a second click does not hide the evidence")
    # Laptop width and print: no horizontal overflow.
    for width in (1366, 1024):
        page.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": False})
        overflow = page.eval("document.documentElement.scrollWidth - window.innerWidth")
        check(overflow <= 0, "samples: %d px of horizontal overflow at width %d" % (overflow, width))
    page.send("Emulation.setEmulatedMedia", {"media": "print"})
    page.send("Emulation.setDeviceMetricsOverride",
              {"width": 794, "height": 1123, "deviceScaleFactor": 1, "mobile": False})
    page.eval("window.scrollTo(0, 0)")
    page.screenshot(os.path.join(out_dir, "report-samples-print.png"))
    overflow = page.eval("document.documentElement.scrollWidth - window.innerWidth")
    check(overflow <= 0, "samples: %d px of horizontal overflow in print (A4)" % overflow)
    for problem in page.problems():
        fail("samples: " + problem)
    print("samples: %d products, %d points, %s bytes, loaded in %.0f ms (%r)" % (
        len(store_points(db)[0]), points, format(size, ","), seconds * 1000, timing(page)))


HOSTILE = [
    {"asin": "</script><img src=x onerror=\"window.__pwned=1\">", "overall": 1,
     "reviewText": "Terrible </script><script>window.__pwned=2</script> kettle. It broke after a "
                   "day. <img src=x onerror=window.__pwned=3>"},
    {"asin": "</script><img src=x onerror=\"window.__pwned=1\">", "overall": 1,
     "reviewText": "\u202egnirts desrever\u202c It broke after a day. <svg onload=window.__pwned=4>"},
    {"asin": "</script><img src=x onerror=\"window.__pwned=1\">", "overall": 2,
     "reviewText": "It broke after a day!\u2028<!-- <iframe src=javascript:window.__pwned=5> "
                   "&lt;b&gt; \\u003c/script\\u003e"},
    {"asin": "\u202eevil\u202c <b>bold</b>", "overall": 5,
     "reviewText": "Great. Works well. <a href=\"javascript:window.__pwned=6\">click</a>"},
    {"asin": "\u202eevil\u202c <b>bold</b>", "overall": 4,
     "reviewText": "Works well, great. ]]> --> </style><style>body{display:none}</style>"},
]


def render_hostile(browser, revsum, work, out_dir):
    dump = os.path.join(work, "hostile.jsonl")
    with open(dump, "w", encoding="utf-8") as f:
        for record in HOSTILE:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    db = os.path.join(work, "hostile.db")
    build_store(revsum, [dump], db, ["--embedder", "lexical"])
    html = os.path.join(work, "hostile.html")
    write_report(revsum, db, html)
    page = Page(browser)
    page.load(html)
    check_dom_against_store(page, db, "hostile")
    check_evidence(page, db, "hostile")
    # Open every point's evidence and draw every sampled review: the data reaches the DOM.
    page.eval("""(() => { document.querySelectorAll('li.point[aria-expanded=false]')
        .forEach(li => li.click());
        document.querySelectorAll('.att-select').forEach(s => {
          for (let i = 0; i < s.options.length; ++i) {
            s.selectedIndex = i; s.dispatchEvent(new Event('change')); } }); })()""")
    found = page.eval("""(() => ({
        injected: document.querySelectorAll('img, svg, iframe, object, embed, b, '
            + 'a[href^="javascript"], main style, main script').length,
        scripts: document.scripts.length, styles: document.querySelectorAll('style').length,
        pwned: window.__pwned === undefined ? null : window.__pwned,
        hidden: getComputedStyle(document.body).display,
        text: document.body.innerText.includes('</script><script>window.__pwned=2</script>')}))()""")
    check(found["injected"] == 0, "hostile: %d injected elements" % found["injected"])
    check(found["scripts"] == 2 and found["styles"] == 1,
          "hostile: %d scripts, %d styles (want 2, 1)" % (found["scripts"], found["styles"]))
    check(found["pwned"] is None, "hostile: injected script ran (%r)" % found["pwned"])
    check(found["hidden"] != "none", "hostile: injected style applied")
    check(found["text"], "hostile: the review's markup is not shown as text")
    page.screenshot(os.path.join(out_dir, "report-hostile.png"))
    for problem in page.problems():
        fail("hostile: " + problem)
    print("hostile: no injected element or script")


def find_shopping_dump():
    shared = os.environ.get("REVSUM_SHARED") or os.path.join(os.path.dirname(ROOT), "shared")
    hits = glob.glob(os.path.join(shared, "**", "online_shopping_10_cats.csv"), recursive=True)
    return hits[0] if hits else None


def render_hotel(browser, revsum, work, out_dir):
    dump = find_shopping_dump()
    if not dump:
        if os.environ.get("CI") not in (None, "", "0", "false"):
            fail("online_shopping_10_cats.csv not found under ../shared (required under CI=true)")
        else:
            print("hotel: skipped, ../shared is not present")
        return
    hotel = os.path.join(work, "hotel.csv")
    with open(dump, newline="", encoding="utf-8-sig") as f, \
            open(hotel, "w", newline="", encoding="utf-8") as out:
        rows, writer = csv.reader(f), csv.writer(out)
        header = next(rows)
        writer.writerow(header)
        cat = header.index("cat")
        kept = 0
        for row in rows:
            if len(row) > cat and row[cat] == "酒店":
                writer.writerow(row)
                kept += 1
    db = os.path.join(work, "hotel.db")
    build_store(revsum, [hotel], db, ["--product-field", "cat"])
    html = os.path.join(work, "hotel.html")
    start = time.monotonic()
    size = write_report(revsum, db, html)
    write_seconds = time.monotonic() - start
    page = Page(browser)
    seconds = page.load(html)
    points = check_dom_against_store(page, db, "hotel")
    check_cjk_font(page, "酒店", "hotel")
    page.screenshot(os.path.join(out_dir, "report-hotel.png"))
    check_evidence(page, db, "hotel")
    page.screenshot(os.path.join(out_dir, "report-hotel-evidence.png"))
    page.eval("document.querySelector('.attention').scrollIntoView({block: 'start'})")
    check_attention(page, "hotel")
    page.screenshot(os.path.join(out_dir, "report-hotel-attention.png"))
    # Render time: the median of five more loads (the first also warms up fonts and caches).
    loads = sorted(page.load(html) for _ in range(5))
    for problem in page.problems():
        fail("hotel: " + problem)
    check(size < 1 << 20, "hotel: page of %d bytes for one product" % size)
    print("hotel (酒店, %d reviews): %d points, page %s bytes, written in %.2f s, first load "
          "%.0f ms, median load %.0f ms (last: %r)" % (
              kept, points, format(size, ","), write_seconds, seconds * 1000,
              loads[len(loads) // 2] * 1000, timing(page)))


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: render.py path/to/revsum")
    revsum = os.path.abspath(sys.argv[1])
    out_dir = os.path.dirname(revsum)
    with tempfile.TemporaryDirectory(prefix="revsum_render_") as work:
        profile = os.path.join(work, "profile")
        os.makedirs(profile)
        browser = Chromium(profile)
        try:
            browser.send("Browser.getVersion", timeout=60)
            render_samples(browser, revsum, work, out_dir)
            render_hostile(browser, revsum, work, out_dir)
            render_hotel(browser, revsum, work, out_dir)
        finally:
            browser.close()
    if FAILURES:
        print("render.py: %d failures" % len(FAILURES))
        sys.exit(1)
    print("render.py: ok; screenshots in %s/report-*.png" % out_dir)


if __name__ == "__main__":
    main()
