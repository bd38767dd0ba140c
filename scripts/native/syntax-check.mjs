// @ts-check
/**
 * Swift and Dart have no toolchain on this project's machines, so their files and the docs'
 * snippets are parsed instead, with tree-sitter grammars from the npm registry run by
 * web-tree-sitter: a syntax error anywhere fails `npm run test:native`. This checks syntax only,
 * not types or names.
 *
 * Which grammar for each language was chosen by trying them on this project's code, on Dart 3's
 * patterns and on Swift's raw strings:
 * - Swift: the npm tree-sitter-swift 0.7.1, its prebuilt binding run by the native
 *   @sengac/tree-sitter runtime (a devDependency; upstream tree-sitter 0.25.1's prebuild needs a
 *   newer libstdc++ than Debian 12 has). The Swift wasm builds of tree-sitter-wasms 0.1.13 and
 *   @cursorless/tree-sitter-wasms reject a raw string holding a quote (`#"{"a": 1}"#`), and
 *   @repomix's rejects `#if` and `#file`.
 * - Dart: @repomix/tree-sitter-wasms 0.1.17's wasm, run by web-tree-sitter: it knows Dart 3
 *   patterns (`case ChatReady():`, switch expressions, sealed classes), which tree-sitter-wasms
 *   0.1.13's Dart and the npm tree-sitter-dart 1.0.0 predate, and @sengac/tree-sitter-dart 1.1.6
 *   rejects an object pattern without fields.
 * Both grammar packages are fetched into the cache (registry-cache.mjs): they are large for the
 * one grammar taken from each.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Language, Parser } from 'web-tree-sitter';
import { cachedPackage } from './registry-cache.mjs';

const require = createRequire(import.meta.url);

/** @typedef {'swift' | 'dart'} ParsedLanguage */
/** @typedef {{ line: number, column: number, what: string }} SyntaxProblem 1-based line and column */

/**
 * The node fields read here, the same in both runtimes.
 * @typedef {{ type: string, isMissing: boolean, hasError: boolean, children: SyntaxNode[],
 *   startIndex: number, endIndex: number, startPosition: { row: number, column: number } }} SyntaxNode
 */

/** @returns {(source: string) => SyntaxNode} */
function swiftParser() {
  const home = cachedPackage(
    'tree-sitter-swift',
    '0.7.1',
    'sha512-pneKVTuGamaBsqqqfB9BvNQjktzh/0IVPR54jLB5Fq/JTDQwYHd0Wo6pVyZ5jAYpbztzq+rJ/rpL9ruxTmSoKw==',
    'src/parser.c',
  );
  // By a name in a variable: the package's own tree-sitter.d.ts is not a module TypeScript reads.
  const runtime = '@sengac/tree-sitter';
  /** @type {new () => { setLanguage(language: unknown): void, parse(source: string): { rootNode: SyntaxNode } }} */
  const NativeParser = require(runtime);
  const parser = new NativeParser();
  parser.setLanguage(require(join(home, 'prebuilds', `${process.platform}-${process.arch}`, 'tree-sitter-swift.node')));
  return (source) => parser.parse(source).rootNode;
}

/** @returns {Promise<(source: string) => SyntaxNode>} */
async function dartParser() {
  const home = cachedPackage(
    '@repomix/tree-sitter-wasms',
    '0.1.17',
    'sha512-tc3HnFqdMF1pXhIMzG3aTaBDpIiHK2tPfn3fwqA6P3WTbHa+1EuuTubbKshvmN7xCHP5Ojz0/VW4R+XvR88KOw==',
    'out/tree-sitter-dart.wasm',
  );
  await Parser.init();
  const parser = new Parser();
  parser.setLanguage(await Language.load(join(home, 'out/tree-sitter-dart.wasm')));
  return (source) => {
    const tree = parser.parse(source);
    if (tree === null) throw new Error('web-tree-sitter gave no tree');
    return /** @type {SyntaxNode} */ (/** @type {unknown} */ (tree.rootNode));
  };
}

/** @type {Map<ParsedLanguage, Promise<(source: string) => SyntaxNode>>} */
const parsers = new Map();

/**
 * The parser for [language], made once.
 * @param {ParsedLanguage} language
 */
function parserFor(language) {
  let parser = parsers.get(language);
  if (parser === undefined) {
    parser = language === 'swift' ? Promise.resolve(swiftParser()) : dartParser();
    parsers.set(language, parser);
  }
  return parser;
}

/**
 * The syntax tree of [source], for checks that read more than its syntax (swift-arity.mjs).
 * @param {ParsedLanguage} language
 * @param {string} source
 * @returns {Promise<SyntaxNode>}
 */
export async function syntaxTree(language, source) {
  return (await parserFor(language))(source);
}

/**
 * The syntax errors in [source]: each ERROR node and each token the parser had to assume.
 * @param {ParsedLanguage} language
 * @param {string} source
 * @returns {Promise<SyntaxProblem[]>}
 */
export async function syntaxProblems(language, source) {
  const root = (await parserFor(language))(source);
  /** @type {SyntaxProblem[]} */
  const problems = [];
  /** @param {SyntaxNode} node */
  const visit = (node) => {
    if (node.type === 'ERROR' || node.isMissing) {
      const text = source.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + 40)).split('\n')[0];
      problems.push({
        line: node.startPosition.row + 1,
        column: node.startPosition.column + 1,
        what: node.isMissing ? `missing ${node.type}` : `unexpected ${JSON.stringify(text)}`,
      });
      return;
    }
    // Only into nodes with an error below them.
    if (node.hasError) node.children.forEach(visit);
  };
  visit(root);
  return problems;
}
/**
 * The problems of a docs snippet, which may be a whole file or statements out of a function
 * body. Swift takes statements at the top level; Dart does not, so a Dart snippet that does not
 * parse as a file is parsed again as the body of an async function (its imports kept at the top).
 * @param {ParsedLanguage} language
 * @param {string} code
 * @returns {Promise<SyntaxProblem[]>}
 */
export async function snippetProblems(language, code) {
  const asFile = await syntaxProblems(language, code);
  if (asFile.length === 0 || language !== 'dart') return asFile;
  const lines = code.split('\n');
  const imports = lines.map((line) => (/^(import|export|part|library)\s/.test(line) ? line : ''));
  const body = lines.map((line, i) => (imports[i] ? '' : line));
  // One line each for the wrapper, so line numbers stay those of the snippet.
  const wrapped = `${imports.join('\n')}\nFuture<void> snippet() async {\n${body.join('\n')}\n}`;
  const asBody = await syntaxProblems(language, wrapped);
  if (asBody.length === 0) return [];
  return asBody.map((problem) => ({ ...problem, line: problem.line - lines.length - 1 }));
}
