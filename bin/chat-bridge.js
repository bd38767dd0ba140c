#!/usr/bin/env node
// The command-line entry. From a fresh checkout (after `npm ci`) dist/ may not exist yet, so
// the first run builds it; installed packages ship dist/ and never build.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// package.json's `engines`: npm only warns on install, and an older Node would fail later, deep
// inside dist/, with an error that does not say why.
const MIN_NODE = 20;
const major = Number(process.versions.node.split('.')[0]);
if (!(major >= MIN_NODE)) {
  process.stderr.write(`chat-bridge: needs Node.js ${MIN_NODE} or newer; this is Node.js ${process.versions.node}.\n`);
  process.exit(1);
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write('chat-bridge: building dist/ first (one time)...\n');
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
const { main } = await import(pathToFileURL(cli).href);
process.exitCode = await main(
  process.argv.slice(2),
  (text) => process.stdout.write(text),
  (text) => process.stderr.write(text),
);
