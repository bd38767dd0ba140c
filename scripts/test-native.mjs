// @ts-check
/**
 * `npm run test:native`: what can be checked of the native packages (host-adapters/android, ios,
 * flutter) without their platforms' toolchains. Prints each failure and, last, one line
 * "N passed, N failed"; exits non-zero on any failure or missing tool.
 *
 * - Kotlin, compiled with a pinned kotlinc (scripts/native/kotlin.mjs): the Android package's
 *   plain part (events, decoder, command scripts, chunked sender) and its Android glue, the glue
 *   against stand-ins of the Android API (test/native/android-api/), and every ```kotlin snippet
 *   of the docs. Then run: the decoder over every test vector (test/native/VectorRunner.kt), over
 *   hostile payloads on small stacks (test/native/HostileRunner.kt), the process-gone helper with a
 *   fake WebView (test/native/ProcessGoneRunner.kt), and the command scripts, each evaluated here in a JavaScript engine (test/native/ScriptsRunner.kt).
 * - Swift and Dart, parsed with tree-sitter (scripts/native/syntax-check.mjs): every file of the
 *   iOS and Flutter packages and every ```swift and ```dart snippet of the docs; and a broken
 *   snippet of each, which must be reported, so the check is known to fail when it should.
 * - Swift patterns over ChatEvent's cases (`case .error(let code, let message)`) name as many
 *   elements as the case has associated values (scripts/native/swift-arity.mjs), in the iOS
 *   package's files and the docs' snippets; and a pattern of the wrong arity must be reported.
 * - The docs' snippets that switch over the events name every one (no `else`, no `default`).
 * - The packages' manifests and resources, as text (scripts/native/package-checks.mjs).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { runInNewContext } from 'node:vm';
import { KOTLIN_VERSION, checkJava, compileKotlin, runKotlin } from './native/kotlin.mjs';
import { writeKotlinSnippets } from './native/kotlin-snippets.mjs';
import { markdownSnippets } from './native/markdown-snippets.mjs';
import { packageChecks } from './native/package-checks.mjs';
import { arityProblems, enumCases } from './native/swift-arity.mjs';
import { snippetProblems, syntaxProblems } from './native/syntax-check.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const VECTORS = ['android', 'flutter', 'react-native', 'ios', 'browser'].map((host) =>
  join(ROOT, `test/vectors/${host}.json`),
);

let passed = 0;
let failed = 0;
/** @param {string} name @param {string | undefined} problem */
function record(name, problem) {
  if (problem === undefined) passed++;
  else {
    failed++;
    console.log(`FAIL ${name}\n  ${problem.replaceAll('\n', '\n  ')}`);
  }
}

/** Every file under [folder] (relative to the root) whose name ends with [extension]. */
function filesUnder(/** @type {string} */ folder, /** @type {string} */ extension) {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(extension))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .sort();
}

/** Compiles the Android package, the stand-ins, the runners and the docs' snippets; runs them. */
function kotlin() {
  checkJava();
  const snippets = markdownSnippets(ROOT, ['kotlin']);
  const out = mkdtempSync(join(tmpdir(), 'chat-bridge-native-'));
  try {
    const sources = [
      ...filesUnder('host-adapters/android/src/main/kotlin', '.kt'),
      ...filesUnder('test/native', '.kt'),
    ].map((file) => join(ROOT, file));
    const jar = join(out, 'native.jar');
    const started = Date.now();
    const compiled = compileKotlin([...sources, ...writeKotlinSnippets(snippets, out)], jar);
    record(
      `kotlinc ${KOTLIN_VERSION}: the Android package and ${snippets.length} docs snippets`,
      compiled ? undefined : 'see its messages above',
    );
    if (!compiled) return;
    console.log(
      `Compiled ${sources.length} Kotlin files and ${snippets.length} docs snippets with kotlinc ${KOTLIN_VERSION} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    vectors(jar);
    counted(jar, 'HostileRunnerKt', 'hostile', 'the Kotlin decoder over hostile payloads');
    counted(jar, 'ProcessGoneRunnerKt', 'process-gone', 'the Android process-gone helper with a fake WebView');
    commandScripts(jar);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The decoder over every vector: VectorRunner counts, and its counts join ours. */
function vectors(/** @type {string} */ jar) {
  const run = runKotlin(jar, 'VectorRunnerKt', VECTORS);
  process.stdout.write(run.stdout);
  const counts = /^vectors: (\d+) passed, (\d+) failed$/m.exec(run.stdout);
  if (!counts || (run.status !== 0 && Number(counts[2]) === 0)) {
    record('the Kotlin decoder over the vectors', `VectorRunner ended with ${run.status}: ${run.stderr}`);
    return;
  }
  passed += Number(counts[1]);
  failed += Number(counts[2]);
}

/**
 * A Kotlin runner that prints "<label>: N passed, N failed" (HostileRunner: what any script of the
 * page can post, decoded on small stacks; ProcessGoneRunner): its counts join ours; a runner that
 * ends without that line is one failure.
 * @param {string} jar @param {string} mainClass @param {string} label @param {string} what
 */
function counted(jar, mainClass, label, what) {
  const run = runKotlin(jar, mainClass, []);
  process.stdout.write(run.stdout);
  const counts = new RegExp(`^${label}: (\\d+) passed, (\\d+) failed$`, 'm').exec(run.stdout);
  if (!counts) {
    record(what, `${mainClass} ended with ${run.status}: ${run.stderr}`);
    return;
  }
  passed += Number(counts[1]);
  failed += Number(counts[2]);
}

/** Each script ChatBridgeScripts builds, evaluated: the bridge must get exactly what was built. */
function commandScripts(/** @type {string} */ jar) {
  const run = runKotlin(jar, 'ScriptsRunnerKt', []);
  const cases = run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  record('ScriptsRunner printed its cases', run.status === 0 && cases.length > 0 ? undefined : run.stderr);
  for (const { name, script, command, settings } of cases) {
    /** @type {unknown[]} */
    const received = [];
    /** @type {Record<string, unknown>} */
    const window = {};
    try {
      runInNewContext(script, {
        window,
        ChatBridge: { receive: (/** @type {unknown} */ data) => received.push(data) },
      });
    } catch (error) {
      record(`Kotlin ${name}`, `the script does not run: ${error}`);
      continue;
    }
    // Through JSON text: the engine's objects have the other realm's prototypes.
    const got = JSON.parse(
      JSON.stringify(
        command
          ? received.map((data) => (typeof data === 'string' ? JSON.parse(data) : data))
          : [window['chatBridgeSettings']],
      ),
    );
    const ran = command !== undefined || window['installed'] === true;
    // Node's engine reads raw U+2028/U+2029 in a string; a WebView before ES2019 does not.
    if (/[\u2028\u2029]/.test(script)) {
      record(`Kotlin ${name}`, 'the script holds a raw U+2028 or U+2029');
      continue;
    }
    // What was received, for a command only: the settings carry a website token.
    const problem = command
      ? `received ${JSON.stringify(got)}`
      : 'the settings differ, or the script after them did not run';
    record(`Kotlin ${name}`, ran && isDeepStrictEqual(got, [command ?? settings]) ? undefined : problem);
  }
}

/** Every Swift and Dart file of the packages and every snippet of the docs, parsed. */
async function syntax() {
  for (const [folder, extension, language] of /** @type {const} */ ([
    ['host-adapters/ios', '.swift', 'swift'],
    ['host-adapters/flutter', '.dart', 'dart'],
  ])) {
    for (const file of filesUnder(folder, extension)) {
      const problems = await syntaxProblems(language, readFileSync(join(ROOT, file), 'utf8'));
      record(`parse ${file}`, describe(file, 0, problems));
    }
  }
  for (const snippet of markdownSnippets(ROOT, ['swift', 'dart'])) {
    const language = /** @type {'swift' | 'dart'} */ (snippet.lang);
    const problems = await snippetProblems(language, snippet.code);
    record(
      `parse the ${language} snippet at ${snippet.file}:${snippet.line}`,
      describe(snippet.file, snippet.line, problems),
    );
  }
  // The checker itself: a snippet with a syntax error must be reported.
  for (const [language, broken] of /** @type {const} */ ([
    ['swift', 'switch event {\ncase .ready: onReady(\n}'],
    ['dart', 'final receiver = ChatBridgeReceiver(onError: (error) => showError(error.code);'],
  ])) {
    const problems = await snippetProblems(language, broken);
    record(`a broken ${language} snippet is reported`, problems.length > 0 ? undefined : 'the parser accepted it');
  }
}

/** Every enum-case pattern over ChatEvent in the iOS package and the docs: as many elements as the case declares. */
async function swiftArity() {
  const declaration = 'host-adapters/ios/Sources/ChatBridge/ChatEvent.swift';
  const cases = await enumCases(readFileSync(join(ROOT, declaration), 'utf8'), 'ChatEvent');
  record(`${declaration} declares ChatEvent's cases`, cases.has('error') ? undefined : 'no case "error" found');
  for (const file of filesUnder('host-adapters/ios', '.swift')) {
    const problems = await arityProblems(readFileSync(join(ROOT, file), 'utf8'), cases);
    record(`the ChatEvent patterns of ${file} match its cases`, describe(file, 0, problems));
  }
  for (const snippet of markdownSnippets(ROOT, ['swift'])) {
    const problems = await arityProblems(snippet.code, cases);
    record(
      `the ChatEvent patterns of the swift snippet at ${snippet.file}:${snippet.line} match its cases`,
      describe(snippet.file, snippet.line, problems),
    );
  }
  // The check itself: the README's old form, against today's two-value .error, must be reported.
  const wrong = await arityProblems('switch event {\ncase let .error(code, message, _, _): break\n}', cases);
  record(
    'a Swift pattern of the wrong arity is reported',
    wrong.length > 0 ? undefined : 'the arity check accepted it',
  );
}

/** @param {string} file @param {number} offset the fence's line, 0 for a file @param {{ line: number, column: number, what: string }[]} problems */
function describe(file, offset, problems) {
  if (problems.length === 0) return undefined;
  return problems.map(({ line, column, what }) => `${file}:${line + offset}:${column}: ${what}`).join('\n');
}

/**
 * A docs snippet that switches over the bridge's events names every one: with an `else` or a
 * `default`, a new event type would pass by the reader's code unseen (kotlinc and swiftc accept it).
 */
function everyEventNamed() {
  for (const { file, line, lang, code } of markdownSnippets(ROOT, ['kotlin', 'swift'])) {
    const switches = lang === 'kotlin' ? /\bwhen \(event\)/ : /\bswitch event\b/;
    if (!switches.test(code)) continue;
    const catchAll = lang === 'kotlin' ? /\belse\s*->/ : /\bdefault\s*:/;
    record(
      `the ${lang} snippet at ${file}:${line} names every event`,
      catchAll.test(code) ? 'it has a catch-all branch: name each event instead' : undefined,
    );
  }
}

kotlin();
everyEventNamed();
await syntax();
await swiftArity();
for (const { name, problem } of packageChecks(ROOT)) record(name, problem);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 && passed > 0 ? 0 : 1;
