/**
 * scripts/closure.mjs runs Closure Compiler's SIMPLE level, one step of scripts/minify.mjs: it
 * must shrink, keep what the code does, rename no property, and add nothing of its own runtime.
 */
import { describe, expect, it } from 'vitest';
import { closureSimple } from '../../../scripts/closure.mjs';
import { readBuiltScripts } from '../../helpers/built-scripts.js';

/** A script that reads a property by a computed name and calls back through an object's method. */
const SCRIPT = `(() => {
  const table = { firstEntry: 1, secondEntry: 2 };
  const name = ['first', 'Entry'].join('');
  async function twice(value) { const unused = value * 3; return value * 2; }
  globalThis.closureResult = { read: table[name], keys: Object.keys(table), twice };
})();`;

describe('closureSimple', () => {
  it('shrinks a script and keeps what it does: property names, computed reads, async functions', async () => {
    const out = await closureSimple(SCRIPT);
    expect(out.length).toBeLessThan(SCRIPT.length);
    expect(out).not.toContain('unused');
    const scope = { closureResult: undefined as unknown };
    new Function('globalThis', out)(scope);
    const result = scope.closureResult as { read: number; keys: string[]; twice(value: number): Promise<number> };
    expect(result.read).toBe(1);
    expect(result.keys).toEqual(['firstEntry', 'secondEntry']);
    await expect(result.twice(21)).resolves.toBe(42);
  }, 60_000);

  it('keeps a strict-mode script strict (its output says "use strict" too)', async () => {
    const out = await closureSimple(
      `"use strict";(() => { function probe() { return this === undefined; } globalThis.strictResult = probe(); })();`,
    );
    // new Function's body is sloppy unless the code says otherwise: only the directive makes `this` undefined.
    const scope = { strictResult: undefined as unknown };
    new Function('globalThis', out)(scope);
    expect(scope.strictResult).toBe(true);
  }, 60_000);

  it('fails with its own message on a script it cannot parse', async () => {
    await expect(closureSimple('const = ;')).rejects.toThrow(/Closure Compiler failed/);
  }, 60_000);

  it('left nothing of its runtime ($jscomp) in any built script', () => {
    for (const [file, code] of Object.entries(readBuiltScripts())) expect(code, file).not.toContain('$jscomp');
  });
});
