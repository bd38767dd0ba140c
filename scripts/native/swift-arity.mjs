// @ts-check
/**
 * Swift patterns whose arity does not match their enum case. `case .error(let code, let message)`
 * against a case with four associated values is a compile error ("tuple pattern has the wrong
 * length"), which tree-sitter's parse does not see and there is no swiftc here to report (issue
 * 35: the README's seed form did not compile). So this walks the syntax trees: the associated
 * values of each case of an enum (ChatEvent, in the iOS package's sources), and every enum-case
 * pattern `.name(a, b, ...)` in the Swift files and snippets checked, whose element count must be
 * the case's. A pattern without parentheses (`case .error:`) matches any case and is not counted;
 * a name the enum does not declare (`.success`, `.failure` of Result) is not its case.
 */
import { syntaxTree } from './syntax-check.mjs';

/** @typedef {import('./syntax-check.mjs').SyntaxNode} SyntaxNode */
/** @typedef {{ line: number, column: number, what: string }} ArityProblem 1-based line and column */

/**
 * The elements between the parenthesis at [open] and its closing one, among [siblings]: the
 * top-level commas plus one (zero for `()`). Commas inside a type or a nested pattern are in
 * child nodes, not siblings.
 * @param {SyntaxNode[]} siblings @param {number} open
 * @returns {{ count: number, close: number }}
 */
function elements(siblings, open) {
  let commas = 0;
  let close = open + 1;
  for (; close < siblings.length && siblings[close]?.type !== ')'; close++) if (siblings[close]?.type === ',') commas++;
  return { count: close === open + 1 ? 0 : commas + 1, close };
}

/** @param {SyntaxNode} node @param {(node: SyntaxNode) => void} visit */
function walk(node, visit) {
  visit(node);
  for (const child of node.children) walk(child, visit);
}

/**
 * The cases of the enum named [enumName] declared in [source], each with its number of
 * associated values (0 for a case without).
 * @param {string} source @param {string} enumName
 * @returns {Promise<Map<string, number>>}
 */
export async function enumCases(source, enumName) {
  /** @type {Map<string, number>} */
  const cases = new Map();
  const text = (/** @type {SyntaxNode} */ node) => source.slice(node.startIndex, node.endIndex);
  walk(await syntaxTree('swift', source), (node) => {
    const isEnum = node.type === 'class_declaration' && node.children.some((child) => child.type === 'enum');
    if (!isEnum || !node.children.some((child) => child.type === 'type_identifier' && text(child) === enumName)) return;
    const body = node.children.find((child) => child.type === 'enum_class_body');
    for (const entry of body?.children.filter((child) => child.type === 'enum_entry') ?? []) {
      // `case a, b(Int, String)`: each name, followed by its parameters when it has any.
      entry.children.forEach((child, i) => {
        if (child.type !== 'simple_identifier') return;
        const parameters = entry.children[i + 1];
        const count = parameters?.type === 'enum_type_parameters' ? elements(parameters.children, 0).count : 0;
        cases.set(text(child), count);
      });
    }
  });
  return cases;
}

/**
 * Every enum-case pattern of [source] naming one of [cases] with another number of elements.
 * @param {string} source @param {Map<string, number>} cases
 * @returns {Promise<ArityProblem[]>}
 */
export async function arityProblems(source, cases) {
  /** @type {ArityProblem[]} */
  const problems = [];
  walk(await syntaxTree('swift', source), (node) => {
    // A pattern's `.name(` is three siblings; an expression's `.name(...)` is a call (prefix
    // expression, then call suffix), never these three.
    const children = node.children;
    for (let i = 0; i + 2 < children.length; i++) {
      const [dot, name, open] = [children[i], children[i + 1], children[i + 2]];
      if (dot?.type !== '.' || name?.type !== 'simple_identifier' || open?.type !== '(') continue;
      const caseName = source.slice(name.startIndex, name.endIndex);
      const declared = cases.get(caseName);
      const { count } = elements(children, i + 2);
      if (declared === undefined || declared === count) continue;
      problems.push({
        line: dot.startPosition.row + 1,
        column: dot.startPosition.column + 1,
        what: `.${caseName}(...) has ${count} element(s); the case declares ${declared} associated value(s)`,
      });
    }
  });
  return problems;
}
