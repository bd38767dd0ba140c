// @ts-check
/**
 * How an injected script is minified after esbuild: terser, then Closure Compiler, then uglify-js,
 * then oxc-minify's compressor (`lastFold`). The build and the bench's like-for-like comparisons
 * both use this, so only the code differs between them.
 *
 * Why four minifiers: terser's compression and its property mangling do most of the work.
 * Closure Compiler's SIMPLE optimizations over terser's output (no property renaming, no type
 * assumptions: local names, dead code, constant folding, inlining, statement fusing) then take off
 * about 150 B gzipped of the bundle and 40 B of the starter, folding what terser leaves (closure.mjs).
 * uglify-js over that takes off another ~1.5%, mostly with what the others do not do: reusing
 * variables whose lives do not overlap (`merge_vars`) and turning `let` into `var` where that
 * changes nothing (`varify`), and with a mangler whose names gzip better. terser's mangling after
 * uglify-js undoes much of that, so uglify-js runs last; then, for the bundle only, one pass of
 * terser's compressor without renaming (`minifyMapped` says why). oxc-minify over the result,
 * without renaming, writes every string as a template literal and comparisons one way round:
 * 14 B off the bundle, 11 B off the starter, 75 B off the debug bundle (30 November 2026, the
 * bundle at 16,360 B); with it, uglify-js's joining of declarations (`join_vars`) costs 14 B
 * instead of saving some, so it is off. oxc renaming as well, or in place of the last terser pass,
 * or before Closure: 90, 40 and 12 B worse.
 *
 * Tried and left (November 2026; GNU gzip -9 of the bundle against 16,317 B, the starter against
 * its own; `=` the same output): terser `toplevel`, `keep_fargs: false`, `unsafe_math`,
 * `unsafe_symbols`, `unsafe_undefined`, `sequences: false`, `ecma: 2015` =; `unsafe_methods` +39,
 * `unsafe_comps` +17, `hoist_props: false` +62, `reduce_funcs: false` +284, `hoist_vars` +33,
 * `collapse_vars: false` +8, `join_vars: false` +3, `inline: 2` +18. uglify-js `toplevel`,
 * `keep_fargs: false`, `templates`, `hoist_funs`, `quote_style: 1` =; `quote_style: 2` +2,
 * `unsafe` -1, `unsafe_comps` +6, `hoist_vars` +14, `reduce_vars: false` +120, `sequences: false`
 * +78, `arrows: false` +22, `functions: false` +2, `inline: 0` +8, `if_return: false` +42, and
 * renaming the properties itself instead of terser +104. Closure `assume_function_wrapper` +9,
 * `language_out` ES2018 = (ES2015 fails), Closure before terser as well +92, none at all +156, a
 * terser pass between Closure and uglify-js +2. esbuild without `minifySyntax` +57. terser's
 * property names dealt out again by use (the shortest to the most used) +4, though 39 characters
 * shorter. Smaller but not safe, so left: terser `unsafe` -4 (`String(x)` becomes `x+""`, which
 * throws for a Symbol and asks an object's `valueOf` first) and `booleans_as_integers` -41 (every
 * `true` a host or the widget receives would arrive as `1`).
 */
import { createRequire } from 'node:module';
import { minify as oxc } from 'oxc-minify';
import { minify as terser } from 'terser';
import { closureSimple } from './closure.mjs';
import { TERSER_OPTIONS } from './shared-settings.mjs';
import { asyncRedeclarations, webkitHazards } from './webkit-hazards.mjs';

// Required with its one call typed here: uglify-js ships no type declarations.
/** @type {{ minify(code: string, options: object): { code: string, map?: string, error?: Error } }} */
const uglify = createRequire(import.meta.url)('uglify-js');

/**
 * uglify-js's options. `webkit: true` keeps its workarounds for WebKit bugs in names and printing;
 * its compressor's one (never merging a parameter with a variable, for JavaScriptCore losing a
 * parameter that an async function redeclares with `var`, WebKit bug 223533, which iOS WebViews
 * have) is asked for only where the output needs it: scripts/webkit-hazards.mjs looks for the
 * pattern, and `minifyMapped` minifies again with it when the pattern is there. Everywhere, it
 * cost about 90 B gzipped. `inline: 1` (as for terser): inlining functions with parameters made the
 * bundle larger gzipped; so did uglify-js's rewriting of comparisons after terser's
 * (`comparisons: false`), and a second pass of its own after terser's six (about 20 B), and, since
 * oxc-minify folds after it, joining declarations (`join_vars`). `module: false`: the script is a
 * classic script, an IIFE that says "use strict" itself.
 */
const UGLIFY_OPTIONS = /** @type {const} */ ({
  compress: { passes: 1, pure_getters: true, inline: 1, join_vars: false, comparisons: false, webkit: false },
  mangle: { webkit: true },
  module: false,
  output: { comments: false, webkit: true },
});

/**
 * Minifies esbuild's IIFE. @param {string} code
 * @param {RegExp} [properties] property names terser may shorten (INTERNAL_PROPERTIES)
 * @returns {Promise<string>}
 */
export async function minifyInjected(code, properties) {
  return (await minifyMapped(code, properties)).code;
}

/**
 * The same, or, given esbuild's source map, carried through terser and uglify-js without Closure
 * or the last terser pass (bench/bundle-size.mjs reads what each module costs from it: the shares
 * of a bundle about 170 B larger than the one built).
 * @param {string} code @param {RegExp} [properties] @param {string} [map] esbuild's source map
 * @returns {Promise<{ code: string, map?: string | undefined }>}
 */
export async function minifyMapped(code, properties, map) {
  const mangle = properties === undefined ? true : { properties: { regex: properties, builtins: true } };
  const compressed = await terser(code, {
    ...TERSER_OPTIONS,
    mangle,
    ...(map === undefined ? {} : { sourceMap: { content: map, asObject: true } }),
  });
  if (compressed.code === undefined) throw new Error('terser produced no output');
  // Closure's step is left out where a source map is asked for (bench/bundle-size.mjs --modules):
  // its map, composed with terser's, gave most of the bundle to one module.
  const folded = map === undefined ? await closureSimple(compressed.code) : compressed.code;
  const sourceMap = map === undefined ? {} : { sourceMap: { content: compressed.map } };
  let result = uglify.minify(folded, { ...UGLIFY_OPTIONS, ...sourceMap });
  if (!result.error && asyncRedeclarations(result.code).length > 0) {
    const compress = { ...UGLIFY_OPTIONS.compress, webkit: true };
    result = uglify.minify(folded, { ...UGLIFY_OPTIONS, compress, ...sourceMap });
    const left = result.error ? [] : asyncRedeclarations(result.code);
    if (left.length > 0) throw new Error(`an async function redeclares its parameter (WebKit bug 223533): ${left[0]}`);
  }
  if (result.error) throw result.error;
  if (map !== undefined) return { code: result.code, map: result.map };
  if (properties === undefined) return { code: await lastFold(result.code) };
  // The bundle only (the one script given `properties`): one more pass of terser's compressor,
  // with TERSER_OPTIONS and no renaming, over uglify-js's output. It folds what uglify-js's last
  // step leaves (constants used once, statements into sequences, `function` IIFEs into arrows):
  // 16 B off the bundle; the same pass made the starter 6 B larger. terser prints with its WebKit
  // workarounds, as uglify-js did, and the WebKit hazard is looked for again in what it prints.
  const refolded = await terser(result.code, {
    ...TERSER_OPTIONS,
    compress: { ...TERSER_OPTIONS.compress, passes: 1 },
    mangle: false,
    format: { ...TERSER_OPTIONS.format, webkit: true },
  });
  if (refolded.code === undefined) throw new Error('terser produced no output');
  return { code: await lastFold(refolded.code) };
}

/**
 * oxc-minify's compressor over the last step's output, without renaming: it writes every string
 * as a template literal (one quote character in the whole script: gzip finds more repeats) and
 * puts comparisons one way round (`x === void 0`). The engines are the supported ones
 * (docs/reference.md), so it lowers nothing and raises nothing past them. Its printer has none of
 * terser's and uglify-js's WebKit workarounds, so its output is looked at for both hazards they
 * guard against (scripts/webkit-hazards.mjs).
 * @param {string} code @returns {Promise<string>}
 */
async function lastFold(code) {
  const folded = await oxc('script.js', code, {
    compress: { target: ['chrome71', 'ios12.2', 'safari12.1'] },
    mangle: false,
  });
  if (folded.errors.length > 0) throw new Error(`oxc-minify: ${folded.errors[0]?.message}`);
  const left = webkitHazards(folded.code);
  if (left.length > 0) throw new Error(`the minified script has what WebKit may break: ${left[0]}`);
  return folded.code;
}
