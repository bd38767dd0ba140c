// @ts-check
/**
 * `npm run test:package`: the package as a user gets it. Builds, packs the tarball, installs it
 * with `npm install <tarball>` into a scratch project outside the repository (a copy, no links;
 * the registry supplies its dependencies), then, from there: imports every entry and checks each
 * does its job (test/package/consumer/entries.mjs), requires each from CommonJS and expects the
 * package's one sentence (require.cjs), runs the CLI (help for each command, a replay against its
 * golden, an old Node), type-checks two consumers with `strict` and `skipLibCheck: false`
 * (all-entries.ts; react-native-app.ts without DOM types), the docs' TypeScript snippets as
 * written (scripts/docs-snippets.mjs) and a CommonJS consumer, and runs publint and attw on the
 * tarball. Stops at the first failure with what was run and what it printed; exit 1.
 *
 * attw runs with the esm-only profile: the package is ES modules only on purpose (README), so
 * its CommonJS resolutions are expected to fail (they reach dist/esm-only.cjs). The three scripts
 * a host injects are files, not modules, so attw does not look for their types.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSnippetProject, snippetsOf, TYPESCRIPT_PAGE, writeSnippetProject } from './docs-snippets.mjs';
import { NATIVE_ASSET_FOLDERS, NATIVE_SCRIPTS } from './native-assets.mjs';
import { publicDeclarations } from './public-types.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const CONSUMER_FILES = join(ROOT, 'test/package/consumer');
const FIXTURE = join(ROOT, 'test/fixtures/auth-refresh.jsonl');
const GOLDEN = (/** @type {string} */ host) => join(ROOT, `test/fixtures/golden/auth-refresh.${host}.jsonl`);
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const BIN = (/** @type {string} */ name) => join(ROOT, 'node_modules/.bin', name);
const SCRIPTS = ['chat-bridge.js', 'chat-bridge.debug.js', 'chat-bridge.start.js'];
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
/** Where the CLI's help may send a reader for a page the tarball does not carry. */
const REPOSITORY_PAGES = `${PACKAGE.homepage.replace(/#.*$/, '')}/blob/main/`;

/** Files the tarball must carry, and paths it must not (the repository's tests and fixtures). */
const REQUIRED = [
  'LICENSE',
  'README.md',
  'CHANGELOG.md',
  'package.json',
  'bin/chat-bridge.js',
  'dist/esm-only.cjs',
  // The native packages with their manifests and the scripts they carry (scripts/native-assets.mjs).
  'host-adapters/android/build.gradle.kts',
  'host-adapters/android/src/main/AndroidManifest.xml',
  'host-adapters/ios/Package.swift',
  'host-adapters/ios/ChatBridge.podspec',
  'host-adapters/flutter/pubspec.yaml',
  ...NATIVE_ASSET_FOLDERS.flatMap((folder) => NATIVE_SCRIPTS.map((script) => `${folder}/${script}`)),
];
const FORBIDDEN = [
  /^test\//,
  /(^|\/)fixtures?\//,
  /(^|\/)golden\//,
  /\.spec\.[cm]?[jt]sx?$/,
  /\.test-d\.ts$/,
  /\.jsonl$/,
  // The native packages' tests read the repository's test/vectors/.
  /^host-adapters\/ios\/Tests\//,
  /^host-adapters\/flutter\/test\//,
];

const scratch = mkdtempSync(join(tmpdir(), 'chat-bridge-package-'));
let checks = 0;
const started = performance.now();

/**
 * Runs a command; returns its output when it exits with `status`, else stops everything.
 * @param {string} what
 * @param {string} command
 * @param {string[]} args
 * @param {{cwd?: string, status?: number, input?: string}} [options]
 */
function run(what, command, args, { cwd = ROOT, status = 0 } = {}) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (result.status !== status) {
    fail(
      `${what}: exit ${result.status ?? result.signal}, expected ${status}\n$ ${[command, ...args].join(' ')}\n` +
        `--- stdout\n${result.stdout}--- stderr\n${result.stderr}`,
    );
  }
  return { stdout: result.stdout, stderr: result.stderr };
}

/** @param {string} message @returns {never} */
function fail(message) {
  console.error(`\ntest:package FAILED: ${message}\n(scratch project kept: ${scratch})`);
  process.exit(1);
}

/** @param {string} what */
function ok(what) {
  checks++;
  console.log(`ok ${what} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

/** @param {string} what @param {boolean} condition @param {string} detail */
function expect(what, condition, detail) {
  if (!condition) fail(`${what}: ${detail}`);
  ok(what);
}

// --- The tarball -----------------------------------------------------------------------------

run('build', process.execPath, ['scripts/build.mjs']);
// --ignore-scripts: built just above; prepack would build a second time.
const packed = JSON.parse(
  run('npm pack', 'npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch]).stdout,
)[0];
const tarball = join(scratch, packed.filename);
/** @type {string[]} */
const files = packed.files.map((/** @type {{path: string}} */ file) => file.path);
const missing = REQUIRED.filter((path) => !files.includes(path));
expect('the tarball carries ' + REQUIRED.join(', '), missing.length === 0, `missing ${missing.join(', ')}`);
const stray = files.filter((path) => FORBIDDEN.some((pattern) => pattern.test(path)));
expect('the tarball carries no test or fixture file', stray.length === 0, stray.join(', '));
const declarations = files.filter((path) => path.startsWith('dist/types/'));
const needed = publicDeclarations(PACKAGE.exports, join(ROOT, 'dist/types'));
const extra = declarations.filter((path) => !needed.has(path.slice('dist/types/'.length)));
const lacking = [...needed].filter((path) => !declarations.includes(`dist/types/${path}`));
expect(
  "the tarball's declarations are those the public entries need, no internal ones",
  extra.length === 0 && lacking.length === 0,
  `not needed: ${extra.join(', ')}; missing: ${lacking.join(', ')}`,
);

// --- A consumer project, installed as a user installs ----------------------------------------

const consumer = join(scratch, 'consumer');
cpSync(CONSUMER_FILES, consumer, { recursive: true });
writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
run('npm install <tarball>', 'npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: consumer });
const installed = join(consumer, 'node_modules/chat-bridge');
expect(
  'npm install <tarball> copies the package (no link into the repository)',
  lstatSync(installed).isDirectory() && !lstatSync(installed).isSymbolicLink(),
  `${installed} is a link`,
);

const imports = run('import every entry', process.execPath, ['entries.mjs', FIXTURE, GOLDEN('android')], {
  cwd: consumer,
});
process.stdout.write(imports.stdout);
ok('every exports entry imports in Node and works');

process.stdout.write(run('require every entry', process.execPath, ['require.cjs'], { cwd: consumer }).stdout);
const required = run('require from CommonJS', process.execPath, ['-e', "require('chat-bridge')"], {
  cwd: consumer,
  status: 1,
});
expect(
  "an uncaught require('chat-bridge') prints the package's sentence",
  required.stderr.includes('chat-bridge is an ES module package: load it with import, not require()') &&
    !required.stderr.includes('dist/esm/'),
  required.stderr,
);

// --- The CLI ----------------------------------------------------------------------------------

const cli = join(consumer, 'node_modules/.bin/chat-bridge');
for (const args of [['help'], ['--help'], ['replay', '--help'], ['doctor', '--help']]) {
  const { stdout } = run(`chat-bridge ${args.join(' ')}`, cli, args, { cwd: consumer });
  // A command's --help is its own usage, not the general help.
  const usage = args[0] === 'replay' || args[0] === 'doctor' ? `Usage: chat-bridge ${args[0]} ` : 'Usage:\n';
  expect(`chat-bridge ${args.join(' ')} prints its usage`, stdout.startsWith(usage), stdout);
  // A page the help names is in the tarball, or a link to the repository's copy.
  const pages = [...stdout.matchAll(/\S*docs\/[\w.-]+\.md/g)].map(([page]) => page);
  const unreachable = pages.filter((page) => !page.startsWith(REPOSITORY_PAGES) && !files.includes(page));
  expect(
    `chat-bridge ${args.join(' ')} names no page the tarball lacks`,
    unreachable.length === 0,
    unreachable.join(', '),
  );
}
run('chat-bridge without a command', cli, [], { cwd: consumer, status: 2 });
ok('chat-bridge without a command exits 2');
run('chat-bridge replay', cli, ['replay', FIXTURE, '--host', 'ios', '--expect', GOLDEN('ios')], { cwd: consumer });
ok('chat-bridge replay plays a fixture as its golden says');
const asNode18 = `data:text/javascript,Object.defineProperty(process,'versions',{value:{...process.versions,node:'18.20.4'}})`;
const old = run('chat-bridge on Node 18', process.execPath, ['--import', asNode18, cli, 'help'], {
  cwd: consumer,
  status: 1,
});
expect(
  'chat-bridge on Node 18 says it needs Node 20',
  old.stderr === 'chat-bridge: needs Node.js 20 or newer; this is Node.js 18.20.4.\n' && old.stdout === '',
  old.stderr,
);

// --- Types ------------------------------------------------------------------------------------

for (const config of readdirSync(consumer).filter((name) => /^tsconfig\..+\.json$/.test(name))) {
  run(`tsc -p ${config}`, process.execPath, [TSC, '-p', config], { cwd: consumer });
  ok(`a consumer type-checks against the installed types (${config}: strict, skipLibCheck false)`);
}

// The docs' TypeScript snippets, as written, with the tsconfigs docs/typescript.md recommends
// (scripts/docs-snippets.mjs). The React Native ones need react-native's and react's types:
// the pinned devDependencies, linked in rather than downloaded again.
for (const name of ['react', 'react-native', 'react-native-webview', '@types/react']) {
  mkdirSync(join(consumer, 'node_modules', name, '..'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules', name), join(consumer, 'node_modules', name), 'dir');
}
const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)]
  .filter((page) => page.endsWith('.md'))
  .map((page) => ({ page, text: readFileSync(join(ROOT, page), 'utf8') }));
const snippets = snippetsOf(pages);
const snippetConfigs = writeSnippetProject(consumer, snippets, readFileSync(join(ROOT, TYPESCRIPT_PAGE), 'utf8'));
const snippetErrors = checkSnippetProject(consumer, snippetConfigs, TSC);
expect(
  `the docs' ${snippets.length} TypeScript snippets compile as written (${snippetConfigs.join(', ')})`,
  snippetErrors.length === 0,
  snippetErrors.join('\n'),
);

// A CommonJS app, as docs/typescript.md describes it: a static import is TS7016 on
// dist/esm-only.cjs (what require() gets), a dynamic import() is typed.
const commonjs = join(consumer, 'commonjs');
mkdirSync(commonjs);
writeFileSync(join(commonjs, 'package.json'), JSON.stringify({ type: 'commonjs' }));
writeFileSync(
  join(commonjs, 'static.ts'),
  "import { createClient } from 'chat-bridge/client';\nexport const client = createClient({ send: () => undefined });\n",
);
writeFileSync(
  join(commonjs, 'dynamic.ts'),
  "export async function start(): Promise<void> {\n  const { createClient } = await import('chat-bridge/client');\n  createClient({ send: () => undefined });\n}\n",
);
const cjsOptions = {
  strict: true,
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  target: 'ES2022',
  lib: ['ES2022', 'DOM'],
  types: [],
  noEmit: true,
};
for (const name of ['static', 'dynamic'])
  writeFileSync(
    join(commonjs, `tsconfig.${name}.json`),
    JSON.stringify({ compilerOptions: cjsOptions, files: [`${name}.ts`] }),
  );
run('tsc -p commonjs/tsconfig.dynamic.json', process.execPath, [TSC, '-p', 'tsconfig.dynamic.json'], { cwd: commonjs });
ok('a CommonJS consumer type-checks a dynamic import()');
const staticImport = run(
  'tsc -p commonjs/tsconfig.static.json',
  process.execPath,
  [TSC, '-p', 'tsconfig.static.json', '--pretty', 'false'],
  {
    cwd: commonjs,
    status: 2,
  },
);
expect(
  "a CommonJS consumer's static import is the TS7016 on esm-only.cjs that docs/typescript.md explains",
  /error TS7016: .*'chat-bridge\/client'.*dist\/esm-only\.cjs/.test(staticImport.stdout),
  staticImport.stdout,
);

// --- Linters of packages, on the tarball ------------------------------------------------------

run('publint', BIN('publint'), ['run', '--strict', tarball]);
ok('publint --strict finds nothing');
run('attw', BIN('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii', '--exclude-entrypoints', ...SCRIPTS]);
ok('attw (esm-only profile) finds nothing');

rmSync(scratch, { recursive: true, force: true });
console.log(`\ntest:package: ${checks} checks ok (${files.length} files, ${Math.round(packed.size / 1024)} kB packed)`);
