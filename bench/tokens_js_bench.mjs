// Times js-tiktoken's encode over the texts of a parity-corpus JSONL file (one {"text": ...} per
// line), the same corpus bench/tokens_bench.cc reads. Prints one JSON object:
//   {"encoding", "texts", "bytes", "tokens", "seconds", "cpu_seconds", "tokens_per_s",
//    "tokens_per_cpu_s", "bytes_per_s"}
// cpu_seconds is the process's user+system CPU time (process.cpuUsage), comparable with Google
// Benchmark's cpu_time on a loaded machine.
// Usage: node bench/tokens_js_bench.mjs <corpus.jsonl> <o200k_base|cl100k_base> [min seconds]
// js-tiktoken is resolved from scripts/make-token-fixtures/node_modules (npm ci there first).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", "scripts", "make-token-fixtures", "package.json"));
const { getEncoding } = require("js-tiktoken");

const [corpus, encodingName, minSecondsArg] = process.argv.slice(2);
const minSeconds = Number(minSecondsArg ?? 3);
const texts = fs.readFileSync(corpus, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l).text);
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t, "utf8"), 0);
const enc = getEncoding(encodingName);

const pass = () => {
  let tokens = 0;
  // encode(text, [], []): special-token texts as ordinary text, as revsum's Encode does.
  for (const t of texts) tokens += enc.encode(t, [], []).length;
  return tokens;
};
pass();  // warm-up: JIT and the regex caches
let passes = 0, tokens = 0;
const start = process.hrtime.bigint();
const cpuStart = process.cpuUsage();
let seconds = 0;
while (seconds < minSeconds || passes < 3) {
  tokens += pass();
  passes++;
  seconds = Number(process.hrtime.bigint() - start) / 1e9;
}
const cpu = process.cpuUsage(cpuStart);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
console.log(JSON.stringify({
  encoding: encodingName, texts: texts.length, bytes: bytes * passes, tokens, seconds,
  cpu_seconds: cpuSeconds, tokens_per_s: tokens / seconds, tokens_per_cpu_s: tokens / cpuSeconds,
  bytes_per_s: (bytes * passes) / seconds,
}));
