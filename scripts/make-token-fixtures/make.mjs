// Generates tests/data/tokens/parity.jsonl: texts with the token ids js-tiktoken (the version
// pinned in package.json / package-lock.json) gives them, for o200k_base and cl100k_base.
//
//   cd scripts/make-token-fixtures && npm ci && node make.mjs
//
// Reads ../shared/data (or $REVSUM_SHARED/data) and samples/ at generation time; the fixture holds
// the texts themselves so the parity test needs neither. Deterministic: same inputs, same file.
//
// One JSON object per line:
//   {"source": "<where the text came from>", "text": "...",
//    "o200k_base": [ids], "cl100k_base": [ids],
//    "default_throws": true,                      (only when the text holds a special token)
//    "o200k_base_special": [ids], "cl100k_base_special": [ids]}   (same lines only)
// The plain id lists are js-tiktoken's encode(text, [], []) — every special-token text is encoded
// as ordinary text, like tiktoken's encode_ordinary. revsum does the same (see tokens.h). Plain
// encode(text) throws on such texts ("default_throws"); the *_special lists are
// encode(text, "all"), where special-token texts become their single special ids.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getEncoding } from "js-tiktoken";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..", "..");
const shared = process.env.REVSUM_SHARED || path.resolve(repo, "..", "shared");
const outFile = path.join(repo, "tests", "data", "tokens", "parity.jsonl");

// mulberry32: a small deterministic PRNG, so the random mixes are the same on every run.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(20240917);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];

// RFC 4180 CSV: quoted fields may hold commas, quotes ("") and newlines.
function parseCsv(text) {
  const rows = [];
  let row = [], field = "", i = 0, quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i += 2; continue; }
      if (c === '"') { quoted = false; i++; continue; }
      field += c; i++; continue;
    }
    if (c === '"' && field === "") { quoted = true; i++; continue; }
    if (c === ",") { row.push(field); field = ""; i++; continue; }
    if (c === "\r" && text[i + 1] === "\n") { i++; continue; }
    if (c === "\n") { row.push(field); rows.push(row); row = []; field = ""; i++; continue; }
    field += c; i++;
  }
  if (field !== "" || row.length) { row.push(field); rows.push(row); }
  return rows;
}

// Keeps texts to a bounded size (in code points) so the fixture stays small.
const clip = (s, n = 600) => { const cps = Array.from(s); return cps.length > n ? cps.slice(0, n).join("") : s; };
const evenly = (xs, n) => xs.length <= n ? xs : Array.from({ length: n }, (_, k) => xs[Math.floor(k * xs.length / n)]);

const items = [];
const add = (source, text) => { if (typeof text === "string") items.push({ source, text }); };

// 1. samples/ and its sub-folders (dumps written for the project): text-like fields of every
// dump. Invalid UTF-8 in the messy samples reads as U+FFFD, like any JS string would hold it.
const samplesDir = path.join(repo, "samples");
if (fs.existsSync(samplesDir)) {
  const texts = [];
  for (const name of fs.readdirSync(samplesDir, { recursive: true }).sort()) {
    const file = path.join(samplesDir, name);
    if (!fs.statSync(file).isFile() || name.endsWith(".gz")) continue;
    const body = fs.readFileSync(file, "utf8");
    if (name.endsWith(".jsonl") || name.endsWith(".json")) {
      for (const line of body.split("\n")) {
        try {
          const obj = JSON.parse(line);
          for (const [k, v] of Object.entries(obj)) {
            if (typeof v === "string" && /text|review|title|summary/i.test(k)) texts.push([`samples/${name}`, v]);
          }
        } catch { /* not JSON: a deliberately broken sample line; skip */ }
      }
    } else if (name.endsWith(".csv") || name.endsWith(".tsv")) {
      for (const row of name.endsWith(".tsv") ? body.split("\n").map((l) => l.split("\t")) : parseCsv(body)) {
        for (const f of row) if (f.length >= 20) texts.push([`samples/${name}`, f]);
      }
    } else if (name.endsWith(".txt")) {
      for (const line of body.split("\n")) if (line.trim()) texts.push([`samples/${name}`, line]);
    }
  }
  for (const [src, t] of evenly(texts, 300)) add(src, clip(t));
}

// 2. Chinese reviews from ../shared/data/zh.
const shop = parseCsv(fs.readFileSync(path.join(shared, "data/zh/online_shopping_10_cats.csv"), "utf8")).slice(1);
evenly(shop.map((r, i) => [i + 2, r]), 500).forEach(([line, r]) => add(`zh/online_shopping_10_cats.csv:${line}`, clip(r[2] ?? "")));
const htl = parseCsv(fs.readFileSync(path.join(shared, "data/zh/ChnSentiCorp_htl_all.csv"), "utf8")).slice(1);
evenly(htl.map((r, i) => [i + 2, r]), 150).forEach(([line, r]) => add(`zh/ChnSentiCorp_htl_all.csv:${line}`, clip(r[1] ?? "")));

// 3. English reviews and gold summaries from ../shared/data/bench.
for (const set of ["oposum_dev", "copycat_dev", "opinosis_dev"]) {
  const lines = fs.readFileSync(path.join(shared, `data/bench/${set}.jsonl`), "utf8").split("\n").filter(Boolean);
  for (const line of lines) {
    const entity = JSON.parse(line);
    const reviews = set === "opinosis_dev" ? evenly(entity.reviews, 12) : entity.reviews;
    for (const r of reviews) add(`bench/${set}:${entity.id}/${r.id}`, clip(r.text));
    (entity.gold || []).slice(0, 1).forEach((g, k) => add(`bench/${set}:${entity.id}/gold${k}`, clip(g)));
  }
}

// 4. Hand-written cases for the places where pre-tokenizers differ.
const crafted = [
  "", " ", "  ", "\n", "\n\n\n", "\r\n", "\t", "a", "A", "1",
  "Hello, world!", "hello world", "Hello   world", "Hello\n\nworld", "trailing spaces   ", "   leading spaces",
  // contractions, every case the o200k pattern spells out, and some it does not
  "I'm sure it's fine, we'll see, they've gone, you're late, he'd go, don't.",
  "I'M SURE IT'S FINE, WE'LL SEE, THEY'VE GONE, YOU'RE LATE, HE'D GO, DON'T.",
  "it'S we'Ll we'lL they'Ve you'rE he'D i'M", "'s 's 'S 'll 'LL 'Ll 'lL", "rock'n'roll o'clock y'all ma'am",
  "JOHN'S CAR'S DOOR'S HANDLE", "McDonald'S", "don’t won’t it’s (curly apostrophes)", "''s '''", "x'sy",
  // numbers with separators
  "1234567890", "12,345,678.90", "1.234.567,89 €", "3.14159265358979", "1e10 -42 +7 0x1F 0b1010",
  "$1,299.99 / 2 = $649.995", "Call 555-123-4567 or +1 (800) 555-0199.", "٣٤٥ ١٢٣ ४५६ ๑๒๓ 一二三 ⅠⅡⅢ ½ ² ³",
  "2024-09-17T12:34:56Z", "v1.2.3-beta.4+build.567", "100%100%100%", "10000000000000000000000",
  // URLs, e-mail, paths
  "https://www.example.com/path/to/page?query=1&b=two#frag", "http://例子.测试/路径?q=中文",
  "mailto:someone@example.org", "C:\\Users\\name\\Documents\\file.txt", "/usr/local/bin/revsum --json",
  "see https://a.b/c/d/e/f/g/h/i/j//k///l", "www.amazon.com/dp/B000A2FTN6/ref=cm_cr_arp_d",
  // code
  "def f(x):\n    return x ** 2\n\n\nprint(f(3))\n",
  "for (int i = 0; i < n; ++i) {\n\tsum += a[i];\n}\n",
  "const re = /[^\\s\\p{L}]+/gu; // comment\nconsole.log(`t=${t}`);",
  "SELECT id, text FROM sentences WHERE review_id = ?1 AND weight > 0.5;",
  "<div class=\"x\">&amp;&lt;b&gt;bold&lt;/b&gt;</div>", "{\"a\": [1, 2, {\"b\": null}]}",
  "if x==1:\r\n\treturn\r\n", "a//b///c////d", "#include <iostream>\nint main(){}",
  // runs of spaces, tabs, newlines
  " ".repeat(17), " ".repeat(100) + "x", "a" + " ".repeat(33) + "b", "\n".repeat(12), " \n \n \n ",
  "word\n\n\n\n   \n\t\tnext", "\t\t\t\tindented", "line1\r\n\r\nline2\r\n", "   \n", "x  \n  y",
  "ends with newline\n", "ends with spaces and newline  \n", "\u000b\u000c\u000b", " \u00a0 \u00a0x",
  // Unicode white space that JS's \s and Unicode's White_Space disagree on (U+FEFF, U+0085)
  "\ufeff这是第一条评论", "a\ufeffb", "\ufeff\ufeff  x", "next\u0085line", "\u0085\u0085 y",
  "ideographic\u3000space\u3000\u3000here", "em\u2003space thin\u2009space", "line\u2028sep para\u2029sep",
  // emoji, ZWJ sequences, flags, skin tones, variation selectors, keycaps
  "I love it 😍😍😍!!!", "👨‍👩‍👧‍👦 family", "👩🏽‍💻 coder", "🏳️‍🌈 flag 🇨🇳🇺🇸🇯🇵", "❤️ vs ❤ vs ♥️",
  "1️⃣ 2️⃣ #️⃣", "😀😃😄😁😆😅🤣😂🙂🙃", "good👍bad👎", "🧑‍🤝‍🧑🫶🏼", "★★★★☆ 4/5",
  // accented, other scripts, RTL
  "Crème brûlée à la française, naïve façade, coöperate", "Ça coûte 12,50 € — très cher!",
  "Straße, Größe, Fußgänger", "ÀÉÎÕÜ àéîõü ÑñÇç", "e\u0301 (e + combining acute) vs é", "Ελληνικά κείμενα",
  "Русский текст: отлично, рекомендую!", "مرحبا بالعالم، المنتج ممتاز جدا", "שלום עולם, מוצר מצוין",
  "mixed English עברית and العربية text", "हिन्दी में समीक्षा: बहुत अच्छा", "ภาษาไทยไม่มีช่องว่าง",
  "日本語のレビュー：とても良いです。", "한국어 리뷰: 아주 좋아요!", "Tiếng Việt có dấu: rất tốt",
  "ǅemal ǈubljana ǋu (titlecase digraphs)", "ʰʲʷ modifier letters ˈstress", "ℌ𝔢𝔩𝔩𝔬 𝐁𝐨𝐥𝐝 𝓢𝓬𝓻𝓲𝓹𝓽",
  // Chinese with and without punctuation, mixed with English
  "质量很好，物流很快，五星好评！", "质量很好物流很快五星好评下次还会再来", "这个iPhone 15的电池续航太差了!!!",
  "屏幕3.5英寸，价格¥1,299元，性价比高。", "“引号”和『书名号』以及【括号】", "半角,全角，混合。.!！?？",
  // review noise
  "great.love it", "!!!", "...", "?!?!?!", "sooooo goooood", "5 stars!!!!!!!!!!!!!!!!!!!!!!!",
  "*****", "----- ===== _____", "!!!one!!!eleven", "A+++ seller, would buy again :) :-( ;P",
  // special tokens: js-tiktoken's encode(text) throws on these; revsum encodes them as text
  "<|endoftext|>", "Hello <|endoftext|> world", "<|endofprompt|>", "<|fim_prefix|>a<|fim_middle|>b<|fim_suffix|>",
  "<|endoftext|><|endoftext|>", "x<|endoftext|", "<| endoftext |>", "<|ENDOFTEXT|>",
  "prefix<|endoftext|>suffix\n<|endofprompt|>",
];
crafted.forEach((t, i) => add(`crafted:${i}`, t));

// 5. Random mixes of fragments from every class above.
const pool = [
  "a", "Z", "the", " The", "ing", "'s", "'S", "'ll", "'LL", "'Ve", "'d", "'", "’", "0", "42", "1234", "12345", ",", ".",
  "...", "!", "?", " ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", " \n", "\u00a0", "\u3000", "\ufeff", "\u0085",
  "é", "e\u0301", "ß", "Ω", "ж", "ع", "ש", "中", "文", "好评", "，", "。", "！", "😀", "👍🏽", "👨‍👩‍👧", "🇩🇪",
  "️", "\u200d", "\u200b", "https://x.y/z", "/", "//", "-", "_", "#", "$", "€", "¥", "%", "(", ")", "[", "]",
  "{", "}", "<", ">", "<|endoftext|>", "<|", "|>", "\\", "\"", "~", "^", "`", "Ⅻ", "½", "١", "٣", "ǅ", "ʰ",
  "ก", "ไ", "ह", "ि", "가", "カ", "ー", "𝔢", "𝐁", "A", "b", "c", "D", "e", "F", "gh", "IJ", "kl", "MN",
];
for (let i = 0; i < 600; i++) {
  const n = 1 + Math.floor(rand() * (i % 3 === 0 ? 120 : 30));
  let s = "";
  for (let k = 0; k < n; k++) s += pick(pool);
  add(`random:${i}`, s);
}
// Random code points from planes 0 and 1, skipping surrogates and unassigned code points in
// either Node's or ICU 72's Unicode version (\p{Cn} in Node is only a proxy for ICU's; the
// blocks here have been stable for years).
const blocks = [[0x20, 0x7e], [0xa0, 0x24f], [0x370, 0x3ff], [0x400, 0x4ff], [0x590, 0x5ff], [0x600, 0x6ff],
  [0x900, 0x97f], [0xe00, 0xe5b], [0x2000, 0x206f], [0x3000, 0x303f], [0x3040, 0x30ff], [0x4e00, 0x9fff],
  [0xac00, 0xd7a3], [0xff00, 0xffef], [0x1f300, 0x1f5ff], [0x1f600, 0x1f64f]];
for (let i = 0; i < 300; i++) {
  const n = 1 + Math.floor(rand() * 40);
  let s = "";
  while (Array.from(s).length < n) {
    const [lo, hi] = pick(blocks);
    const cp = lo + Math.floor(rand() * (hi - lo + 1));
    const ch = String.fromCodePoint(cp);
    if (/\p{Cn}|\p{Cs}/u.test(ch)) continue;
    s += ch;
  }
  add(`random-codepoints:${i}`, s);
}

const o200k = getEncoding("o200k_base");
const cl100k = getEncoding("cl100k_base");
const lines = [];
for (const { source, text } of items) {
  const rec = { source, text, o200k_base: o200k.encode(text, [], []), cl100k_base: cl100k.encode(text, [], []) };
  let throws = false;
  try { o200k.encode(text); cl100k.encode(text); } catch { throws = true; }
  if (throws) {
    rec.default_throws = true;
    rec.o200k_base_special = o200k.encode(text, "all");
    rec.cl100k_base_special = cl100k.encode(text, "all");
  }
  lines.push(JSON.stringify(rec));
}
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, lines.join("\n") + "\n");
const bytes = fs.statSync(outFile).size;
console.log(`make-token-fixtures: ${lines.length} texts, ${bytes} bytes -> ${path.relative(repo, outFile)}`);
