// @ts-check
/**
 * Swift and Dart have no toolchain on this project's machines, so their files and the docs'
 * snippets are parsed instead, with tree-sitter grammars from the npm registry run by
 * web-tree-sitter: a syntax error anywhere fails `npm run test:native`. This checks syntax only,
 * not types or names.
 *
 * Which build of each grammar was chosen by trying them on this project's code (and on Dart 3's
 * patterns): Swift from tree-sitter-wasms 0.1.13 (@repomix's build rejects `#if` and `#file`);
 * Dart from @repomix/tree-sitter-wasms 0.1.17, whose grammar knows Dart 3 patterns
 * (`case ChatReady():`, switch expressions, sealed classes), which tree-sitter-wasms 0.1.13's Dart
 * and the npm tree-sitter-dart 1.0.0 predate (and @sengac/tree-sitter-dart 1.1.6 rejects an
 * object pattern without fields). Both are fetched into the cache (registry-cache.mjs): the
 * packages hold every language, 73 MB together, for two files of 3 MB.
 */
import { join } from 'node:path';
import { Language, Parser } from 'web-tree-sitter';
import { cachedPackage } from './registry-cache.mjs';

/** @type {Record<ParsedLanguage, () => string>} the grammar's wasm file, fetched on first use */
const GRAMMARS = {
  swift: () =>
    join(
      cachedPackage(
        'tree-sitter-wasms',
        '0.1.13',
        'sha512-wT+cR6DwaIz80/vho3AvSF0N4txuNx/5bcRKoXouOfClpxh/qqrF4URNLQXbbt8MaAxeksZcZd1j8gcGjc+QxQ==',
        'out/tree-sitter-swift.wasm',
      ),
      'out/tree-sitter-swift.wasm',
    ),
  dart: () =>
    join(
      cachedPackage(
        '@repomix/tree-sitter-wasms',
        '0.1.17',
        'sha512-tc3HnFqdMF1pXhIMzG3aTaBDpIiHK2tPfn3fwqA6P3WTbHa+1EuuTubbKshvmN7xCHP5Ojz0/VW4R+XvR88KOw==',
        'out/tree-sitter-dart.wasm',
      ),
      'out/tree-sitter-dart.wasm',
    ),
};

/** @typedef {'swift' | 'dart'} ParsedLanguage */
/** @typedef {{ line: number, column: number, what: string }} SyntaxProblem 1-based line and column */

/** @type {Map<ParsedLanguage, Promise<Parser>>} */
const parsers = new Map();

/**
 * A parser for [language], made once.
 * @param {ParsedLanguage} language
 */
function parserFor(language) {
  let parser = parsers.get(language);
  if (parser === undefined) {
    parser = (async () => {
      await Parser.init();
      const grammar = await Language.load(GRAMMARS[language]());
      const made = new Parser();
      made.setLanguage(grammar);
      return made;
    })();
    parsers.set(language, parser);
  }
  return parser;
}

/**
 * The syntax errors in [source]: each ERROR node and each token the parser had to assume.
 * @param {ParsedLanguage} language
 * @param {string} source
 * @returns {Promise<SyntaxProblem[]>}
 */
export async function syntaxProblems(language, source) {
  const tree = (await parserFor(language)).parse(source);
  if (tree === null) return [{ line: 1, column: 1, what: 'the parser gave no tree' }];
  /** @type {SyntaxProblem[]} */
  const problems = [];
  const cursor = tree.walk();
  let more = true;
  while (more) {
    const node = cursor.currentNode;
    if (node.isError || node.isMissing) {
      const text = source.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + 40)).split('\n')[0];
      problems.push({
        line: node.startPosition.row + 1,
        column: node.startPosition.column + 1,
        what: node.isMissing ? `missing ${node.type}` : `unexpected ${JSON.stringify(text)}`,
      });
    }
    // Into a node only while it has errors below it; then to the next sibling, or up and on.
    if (node.hasError && !node.isError && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        more = false;
        break;
      }
    }
  }
  tree.delete();
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
