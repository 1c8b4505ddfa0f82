#!/usr/bin/env node
// Converts js-tiktoken's rank tables (dist/ranks/<encoding>.cjs of the npm package) into the files
// revsum's tokens stage reads: models/tiktoken/<encoding>.tiktoken.
//
// Usage: node scripts/convert-tiktoken.cjs <unpacked js-tiktoken package dir> <dest dir> <version>
//
// Output format (text, UTF-8, '\n' line ends), deterministic for a given package version:
//   #revsum-tiktoken 1
//   #encoding <name>
//   #source js-tiktoken <version>
//   #pattern <the pre-tokenization regex exactly as js-tiktoken ships it>
//   #special <token text> <id>          (one line per special token)
//   <base64 token bytes> <rank>         (one line per token, in rank order)
// The C++ loader checks that #pattern is the pattern it implements, so a new js-tiktoken release
// whose regex changed is caught instead of silently tokenizing differently.
"use strict";
const fs = require("fs");
const path = require("path");

const [pkgDir, destDir, version] = process.argv.slice(2);
if (!pkgDir || !destDir || !version) {
  console.error("usage: convert-tiktoken.cjs <js-tiktoken package dir> <dest dir> <version>");
  process.exit(2);
}

for (const encoding of ["o200k_base", "cl100k_base"]) {
  const ranks = require(path.resolve(pkgDir, "dist", "ranks", `${encoding}.cjs`));
  if (/[\r\n]/.test(ranks.pat_str)) throw new Error(`${encoding}: pattern holds a line break`);
  // bpe_ranks: lines "<anything> <offset> <tok> <tok> ..."; tokens are base64, ranks consecutive
  // from offset (this is how js-tiktoken's Tiktoken constructor reads it).
  const byRank = new Map();
  for (const line of ranks.bpe_ranks.split("\n")) {
    if (!line) continue;
    const [, offsetStr, ...tokens] = line.split(" ");
    const offset = Number.parseInt(offsetStr, 10);
    tokens.forEach((token, i) => {
      if (byRank.has(offset + i)) throw new Error(`${encoding}: rank ${offset + i} twice`);
      byRank.set(offset + i, token);
    });
  }
  const out = [
    "#revsum-tiktoken 1",
    `#encoding ${encoding}`,
    `#source js-tiktoken ${version}`,
    `#pattern ${ranks.pat_str}`,
  ];
  for (const [text, id] of Object.entries(ranks.special_tokens)) out.push(`#special ${text} ${id}`);
  for (const rank of [...byRank.keys()].sort((a, b) => a - b)) out.push(`${byRank.get(rank)} ${rank}`);
  fs.mkdirSync(destDir, { recursive: true });
  const file = path.join(destDir, `${encoding}.tiktoken`);
  fs.writeFileSync(file + ".tmp", out.join("\n") + "\n");
  fs.renameSync(file + ".tmp", file);
  console.log(`convert-tiktoken: ${file} (${byRank.size} tokens)`);
}
