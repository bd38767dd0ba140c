// @ts-check
/**
 * `npm run test:native`: compiles the Kotlin decoder (host-adapters/native/android/ChatEvent.kt)
 * with a pinned kotlinc against AOSP's own org.json, and runs it over every test vector
 * (test/native/VectorRunner.kt). Prints the runner's "N passed, N failed" and exits non-zero on
 * any failure or missing tool.
 *
 * kotlinc comes from the npm registry's `kotlin-compiler` package (a full kotlinc distribution
 * that needs only a JRE), fetched with `npm pack` at a pinned version, checked against a pinned
 * sha512, and kept in a cache outside node_modules (90 MB: not a devDependency, so `npm ci` stays
 * light for everyone who never runs this). org.json is Debian's `libandroid-json-java`; Java is
 * `openjdk-17-jre-headless`. `.ci/run` installs both.
 *
 * The Android glue (ChatBridgeReceiver.kt: WebView, androidx.webkit, Handler) needs the Android SDK
 * and is not compiled here. docs/attachments.md's Kotlin snippet for sending a file in chunks
 * (ChunkedFileSender, pure Kotlin over org.json) is compiled with the decoder, as written there.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const KOTLIN_VERSION = '2.4.20';
const KOTLIN_INTEGRITY =
  'sha512-IF5IVM7LpPhA/ntHQQpaVt1yxpaaQovtEVYLyqWMuaLr0XelLPPm7/sM6HLhtcRjjjoSsK7I7lP2kzYJkMy73w==';
const ORG_JSON_JAR = process.env['ANDROID_JSON_JAR'] ?? '/usr/share/java/com.android.json.jar';
const CACHE =
  process.env['CHAT_BRIDGE_CACHE'] ?? join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'chat-bridge');

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SOURCES = [join(ROOT, 'host-adapters/native/android/ChatEvent.kt'), join(ROOT, 'test/native/VectorRunner.kt')];
const VECTORS = ['android', 'flutter', 'react-native', 'ios', 'browser'].map((host) =>
  join(ROOT, `test/vectors/${host}.json`),
);

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  console.error(`test:native: ${message}`);
  process.exit(1);
}

/** The kotlinc distribution, from the cache or fetched once and verified. */
function kotlinHome() {
  const home = join(CACHE, `kotlin-compiler-${KOTLIN_VERSION}`);
  if (existsSync(join(home, 'lib', 'kotlin-compiler.jar'))) return home;
  mkdirSync(CACHE, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'kotlin-compiler-'));
  try {
    console.log(`Fetching kotlin-compiler@${KOTLIN_VERSION} from the npm registry (once, ~90 MB)...`);
    execFileSync('npm', ['pack', `kotlin-compiler@${KOTLIN_VERSION}`, '--pack-destination', work, '--silent'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    if (!tarball) fail('npm pack produced no tarball');
    const digest = `sha512-${createHash('sha512')
      .update(readFileSync(join(work, tarball)))
      .digest('base64')}`;
    if (digest !== KOTLIN_INTEGRITY)
      fail(`kotlin-compiler@${KOTLIN_VERSION} has integrity ${digest}, expected ${KOTLIN_INTEGRITY}`);
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', join(work, tarball), '-C', unpacked]);
    rmSync(home, { recursive: true, force: true });
    execFileSync('mv', [join(unpacked, 'package'), home]);
    return home;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
if (java.status !== 0) fail('no java on PATH: apt-get install openjdk-17-jre-headless');
if (!existsSync(ORG_JSON_JAR))
  fail(`${ORG_JSON_JAR} is missing: apt-get install libandroid-json-java (AOSP's org.json)`);

/** docs/attachments.md's `ChunkedFileSender.kt` snippet, in the decoder's package, so it compiles as a reader would paste it. */
/** @param {string} folder @returns {string} */
function readmeSnippet(folder) {
  const page = readFileSync(join(ROOT, 'docs/attachments.md'), 'utf8');
  const snippet = /```kotlin\n(\/\/ ChunkedFileSender\.kt[^]*?)```/.exec(page)?.[1];
  if (snippet === undefined) fail('docs/attachments.md has no ```kotlin block starting "// ChunkedFileSender.kt"');
  const file = join(folder, 'ChunkedFileSender.kt');
  writeFileSync(file, `package com.example.chatbridge\n${snippet}`);
  return file;
}

const home = kotlinHome();
const out = mkdtempSync(join(tmpdir(), 'chat-bridge-native-'));
try {
  const jar = join(out, 'receiver.jar');
  const started = Date.now();
  // kotlinc's own launcher script; -Werror keeps the decoder free of warnings.
  const compile = spawnSync(
    'java',
    [
      '-cp',
      join(home, 'lib', 'kotlin-compiler.jar'),
      'org.jetbrains.kotlin.cli.jvm.K2JVMCompiler',
      '-no-reflect',
      '-kotlin-home',
      home,
      '-Werror',
      '-classpath',
      ORG_JSON_JAR,
      '-d',
      jar,
      ...SOURCES,
      readmeSnippet(out),
    ],
    { stdio: 'inherit' },
  );
  if (compile.status !== 0) fail('kotlinc failed');
  console.log(
    `Compiled ChatEvent.kt and docs/attachments.md's ChunkedFileSender.kt with kotlinc ${KOTLIN_VERSION} against ${ORG_JSON_JAR} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const classpath = [jar, join(home, 'lib', 'kotlin-stdlib.jar'), ORG_JSON_JAR].join(':');
  const run = spawnSync('java', ['-cp', classpath, 'VectorRunnerKt', ...VECTORS], { stdio: 'inherit' });
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
