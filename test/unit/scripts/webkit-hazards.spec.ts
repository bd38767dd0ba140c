/**
 * scripts/webkit-hazards.mjs finds the code WebKit bug 223533 breaks (an async function that
 * redeclares its parameter with `var`), and scripts/minify.mjs never writes it: it minifies
 * without uglify-js's blanket workaround, and again with it where the pattern appears. It also
 * finds a property read of a bare function expression (WebKit bug 123506), which terser and
 * uglify-js print in parentheses and oxc-minify, the last step, is checked for; and an array
 * pattern with a rest element, which Safari and iOS up to 13.1 may fill with a non-array.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { minifyInjected } from '../../../scripts/minify.mjs';
import {
  arrayRestPatterns,
  asyncRedeclarations,
  functionExpressionsRead,
  webkitHazards,
} from '../../../scripts/webkit-hazards.mjs';
import { readBuiltScripts } from '../../helpers/built-scripts.js';

const uglify = createRequire(import.meta.url)('uglify-js') as {
  minify(code: string, options: object): { code: string };
};

/** mishoo/UglifyJS#5818's input (Safari 17.1: "Right side of assignment cannot be destructured"). */
const REPORTED = `(() => { "use strict"; window.getProgress = async function (params) {
  const { gameName, difficulty } = params;
  const endPoint = "/progress?game=" + gameName + "&difficulty=" + difficulty;
  const { data } = await window.axios.get(endPoint);
  return data;
}; })();`;

describe('asyncRedeclarations', () => {
  it.each([
    ['a var over a parameter', 'async function f(a) { var b = a, a = 1; }', ['a']],
    ['in an async arrow', 'const f = async (a) => { var a = 1; };', ['a']],
    ['a destructured parameter', 'async function f({ x: [y = 1] }) { var y; }', ['y']],
    ['a rest parameter', 'async function f(...rest) { if (rest) { var rest = 0; } }', ['rest']],
    ['a function declaration', 'async function f(a) { function a() {} }', ['a']],
    ['in a generator', 'function* f(a) { var a; }', ['a']],
    ['in an async method', 'const o = { async m(a) { var a; } };', ['a']],
  ])('finds %s', (_, code, names) => {
    expect(asyncRedeclarations(code).map((line) => line.split(' ')[0])).toEqual(names);
  });

  it.each([
    ['in a plain function', 'function f(a) { var a = 1; }'],
    ['a nested function of its own', 'async function f(a) { return function () { var a = 1; }; }'],
    ['a let in a block', 'async function f(a) { { let a = 1; } }'],
    ['a var of another name', 'async function f(a) { var b = a; }'],
  ])('leaves %s', (_, code) => {
    expect(asyncRedeclarations(code)).toEqual([]);
  });
});

describe('functionExpressionsRead', () => {
  it.each([
    ['a call through .call', 'a = function () {}.call(b);', 1],
    ['a property read', 'x = function f() { return 1; }.name;', 1],
    ['in parentheses', 'a = (function () {}).call(b);', 0],
    ['an arrow function', 'a = (() => 1).call(b);', 0],
    ['an IIFE', '(function () {})();', 0],
  ])('%s: %i', (_, code, count) => {
    expect(functionExpressionsRead(code)).toHaveLength(count);
  });
});

describe('arrayRestPatterns', () => {
  it.each([
    ['a declaration', 'let [a, ...rest] = [0, void 0];', 1],
    ['an assignment', '[a, ...b] = c;', 1],
    ['a parameter', 'function f([a, ...b]) {}', 1],
    ['nested in an object pattern', 'const { x: [...y] } = z;', 1],
    ['an array spread', 'const a = [...b, c];', 0],
    ['a rest parameter', 'function f(...a) {}', 0],
    ['an object rest', 'const { a, ...b } = c;', 0],
    ['an array pattern without rest', 'const [a, b] = c;', 0],
  ])('%s: %i', (_, code, count) => {
    expect(arrayRestPatterns(code)).toHaveLength(count);
  });

  it('fails the build where the source writes one', async () => {
    await expect(
      minifyInjected('window.f = (x) => { const [a, ...rest] = x; return [a, rest]; };', undefined),
    ).rejects.toThrow(/WebKit may break/);
  });
});

describe('the minified scripts', () => {
  it('uglify-js without its workaround writes the pattern for the reported input', () => {
    const plain = uglify.minify(REPORTED, { compress: { webkit: false }, mangle: true }).code;
    expect(asyncRedeclarations(plain)).not.toEqual([]);
  });

  // With `properties` (as the bundle is built), terser's compressor runs once more at the end.
  it.each([
    ['as the starter is built', undefined],
    ['as the bundle is built', /^(?:notInTheScript)$/],
  ])('minifyInjected does not, %s, and keeps the function working', async (_, properties) => {
    const code = await minifyInjected(REPORTED, properties);
    expect(asyncRedeclarations(code)).toEqual([]);
    const window = { axios: { get: async (path: string) => ({ data: path }) } } as Record<string, any>;
    new Function('window', code)(window);
    await expect(window.getProgress({ gameName: 'go', difficulty: 3 })).resolves.toBe('/progress?game=go&difficulty=3');
  });

  it('webkitHazards finds what each finder finds, in one list', () => {
    const code = 'async function f(a) { var a; } x = function () {}.call(y); [b, ...c] = d;';
    const each = [asyncRedeclarations(code), functionExpressionsRead(code), arrayRestPatterns(code)];
    expect(each.map((found) => found.length)).toEqual([1, 1, 1]);
    expect(webkitHazards(code)).toEqual(each.flat());
  });

  it('the built bundle, debug bundle and starter have none', () => {
    for (const script of Object.values(readBuiltScripts())) expect(webkitHazards(script)).toEqual([]);
  });

  // oxc-minify, the last step, writes every string as a template literal: a `${`, a backtick, a
  // backslash or a line separator in a string must come out as the same string.
  it.each([
    ['as the starter is built', undefined],
    ['as the bundle is built', /^(?:notInTheScript)$/],
  ])('minifyInjected keeps every string as it was, %s', async (_, properties) => {
    const strings = ['${x}', 'a`b', '`${a}`', 'back\\slash', 'line\u2028sep', `it's "quoted"`, '$', '{}', '\u0000'];
    const code = `"use strict";(() => { window.out = ${JSON.stringify(strings)}; })();`;
    const minified = await minifyInjected(code, properties);
    expect(minified.startsWith('"use strict";')).toBe(true);
    expect(minified).not.toContain('"${x}"'); // written another way, and still the same strings:
    expect(new Function(`const window = {}; ${minified}; return window.out;`)()).toEqual(strings);
  });
});
