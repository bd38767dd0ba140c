// Runs inside the scratch consumer project: require() of every module entry fails at once with the
// package's own sentence (dist/esm-only.cjs), not with a resolution error or a stack from dist/.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- require() is what this file tests */
const assert = require('node:assert/strict');
const { exports: entries } = require('chat-bridge/package.json');

const modules = Object.entries(entries).filter(([, target]) => typeof target === 'object');
assert.ok(modules.length > 0);
for (const [entry] of modules) {
  const specifier = entry === '.' ? 'chat-bridge' : `chat-bridge/${entry.slice(2)}`;
  assert.throws(
    () => require(specifier),
    (error) =>
      error.code === 'ERR_REQUIRE_ESM' &&
      /^chat-bridge is an ES module package: load it with import, not require\(\)/.test(error.message),
    specifier,
  );
  console.log(`ok require('${specifier}') says: ES module package, use import`);
}
