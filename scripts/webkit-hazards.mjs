// @ts-check
/**
 * WebKit bugs the injected scripts must not fall into (each finder below says its own;
 * `webkitHazards` runs them all). The one the minifiers write: in an async function, a `var` that
 * declares again a name its parameters bind loses the parameter's value (JavaScriptCore reads
 * `undefined`, or throws "Right side of assignment cannot be destructured"). WebKit bug 223533;
 * reported against uglify-js, whose `merge_vars` writes exactly that, in mishoo/UglifyJS#5155
 * (Safari 14), #5776 and #5818 (Safari 17.1). WebKitGTK 2.50 no longer has it; iOS WebViews
 * of the versions the bridge supports (12.2 on) may.
 *
 * uglify-js's `webkit` compress option avoids it by never merging a parameter with a variable, in
 * every function, which costs the bundle about 90 B gzipped; scripts/minify.mjs instead minifies
 * without it, looks for the pattern here, and minifies again with it where the pattern is found.
 * Generators are looked at too: they are compiled the way async functions are.
 */
import { parse } from 'acorn';

/**
 * Where the code redeclares a parameter with `var` (or a function declaration) in the body of an
 * async function or a generator: a line per place, the function's first characters.
 * @param {string} code a classic script
 * @returns {string[]}
 */
export function asyncRedeclarations(code) {
  /** @type {string[]} */
  const found = [];
  walk(parse(code, { ecmaVersion: 'latest' }), (node) => {
    if (!isFunction(node) || !(node.async || node.generator) || node.body.type !== 'BlockStatement') return;
    const declared = new Set(ownDeclarations(node.body));
    for (const name of node.params.flatMap((/** @type {AnyNode} */ param) => boundNames(param)))
      if (declared.has(name)) found.push(`${name} in ${code.slice(node.start, node.start + 60)}`);
  });
  return found;
}

/**
 * Where the code reads a property of a function expression without parentheses around it
 * (`a = function () {}.call(b)`): old JavaScriptCore misparsed that (WebKit bug 123506), and
 * terser's and uglify-js's `webkit` printing wraps such a function in parentheses. A line per
 * place. Arrow functions are left out: they cannot be read from without parentheses.
 * @param {string} code a classic script
 * @returns {string[]}
 */
export const functionExpressionsRead = (/** @type {string} */ code) =>
  placesOf(code, (node) => node.type === 'MemberExpression' && node.object.type === 'FunctionExpression', {
    preserveParens: true,
  });

/**
 * Where the code destructures with an array pattern that ends in a rest element
 * (`[a, ...rest] = x`): in Safari and iOS 9 to 13.1 the rest may not be an array when the right
 * side is an array literal (babel/babel#17773, compat-table#2008; iOS 12.2 and 13 are supported
 * engines). esbuild keeps destructuring as written (the bundle's target is ES2017), so the bridge's
 * source must not write one; the build fails where it does. A line per place.
 * @param {string} code a classic script
 * @returns {string[]}
 */
export const arrayRestPatterns = (/** @type {string} */ code) =>
  placesOf(code, (node) => node.type === 'ArrayPattern' && node.elements.at(-1)?.type === 'RestElement');

/**
 * Every hazard above in `code`, a line each: what a script that ships must have none of
 * (minify.mjs's last step fails on one; build checks run it on the built scripts). At build time
 * only: each finder parses the script again, a few milliseconds.
 * @param {string} code a classic script
 * @returns {string[]}
 */
export const webkitHazards = (/** @type {string} */ code) => [
  ...asyncRedeclarations(code),
  ...functionExpressionsRead(code),
  ...arrayRestPatterns(code),
];

/** @typedef {import('acorn').Node & Record<string, any>} AnyNode */

/**
 * The first characters of each node of `code` that `matches`, in document order.
 * @param {string} code
 * @param {(node: AnyNode) => boolean} matches
 * @param {Partial<import('acorn').Options>} options acorn's, beside the latest ECMAScript
 * @returns {string[]}
 */
function placesOf(code, matches, options = {}) {
  /** @type {string[]} */
  const found = [];
  walk(parse(code, { ecmaVersion: 'latest', ...options }), (node) => {
    if (matches(node)) found.push(code.slice(node.start, node.start + 60));
  });
  return found;
}

/** @param {AnyNode} node */
const isFunction = (node) => /^(?:FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/.test(node.type);

/**
 * Every node under `node`, parents first. @param {AnyNode} node
 * @param {(node: AnyNode) => boolean | void} visit returns `false` to skip the node's children
 */
function walk(node, visit) {
  if (visit(node) === false) return;
  for (const value of Object.values(node)) {
    for (const child of Array.isArray(value) ? value : [value])
      if (child && typeof child.type === 'string') walk(child, visit);
  }
}

/** The names a parameter or declaration pattern binds. @param {AnyNode | null} pattern @returns {string[]} */
function boundNames(pattern) {
  if (!pattern) return [];
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name];
    case 'ObjectPattern':
      return pattern.properties.flatMap((/** @type {AnyNode} */ property) =>
        boundNames(property.type === 'RestElement' ? property.argument : property.value),
      );
    case 'ArrayPattern':
      return pattern.elements.flatMap(boundNames);
    case 'RestElement':
      return boundNames(pattern.argument);
    case 'AssignmentPattern':
      return boundNames(pattern.left);
    default:
      return [];
  }
}

/** The names `var` and function declarations bind in a function body's own scope. @param {AnyNode} body */
function ownDeclarations(body) {
  /** @type {string[]} */
  const names = [];
  walk(body, (node) => {
    if (node.type === 'FunctionDeclaration') names.push(node.id.name);
    if (node.type === 'VariableDeclaration' && node.kind === 'var')
      for (const declarator of node.declarations) names.push(...boundNames(declarator.id));
    // A nested function's declarations are its own.
    return node === body || !(isFunction(node) || /^Class/.test(node.type));
  });
  return names;
}
