/**
 * scripts/generate-validators.mjs, the validators the injected bundle carries instead of zod:
 * it picks up whatever the schemas module exports, and refuses (failing the build) what it cannot
 * reproduce exactly. That it agrees with zod on everything is the fuzz suite's last property.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateValidators } from '../../../scripts/generate-validators.mjs';

// Inside the project, so that the module's `zod/mini` import resolves as schemas.ts's does.
const folder = mkdtempSync(join(process.cwd(), 'node_modules', '.generate-validators-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let count = 0;
async function generate(source: string): Promise<Record<string, any>> {
  const path = join(folder, `schemas-${count++}.ts`);
  writeFileSync(path, `import * as z from 'zod/mini';\n${source}`);
  const code = await generateValidators(path);
  return (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as Record<string, any>;
}

/** The same source's schemas twice: as zod runs them, and as generated. */
async function generateBoth(source: string): Promise<{ zod: Record<string, any>; ours: Record<string, any> }> {
  const path = join(folder, `schemas-${count++}.mjs`);
  writeFileSync(path, `import * as z from 'zod/mini';\n${source}`);
  const code = await generateValidators(path);
  return {
    zod: (await import(pathToFileURL(path).href)) as Record<string, any>,
    ours: (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as Record<string, any>,
  };
}

/** What the bridge reads of a verdict: success, the output and its keys' order, each issue's code, path, expected type and a custom issue's message. */
function essentials(result: any): unknown {
  if (result.success) {
    const order = (value: unknown): unknown =>
      typeof value === 'object' && value !== null
        ? Object.entries(value).map(([key, inner]) => [key, order(inner)])
        : value;
    return { success: true, data: result.data, order: order(result.data) };
  }
  return {
    success: false,
    issues: result.error.issues.map(({ code, path, expected, message }: Record<string, unknown>) => ({
      code,
      path,
      expected,
      message: code === 'custom' ? message : undefined,
    })),
  };
}

const length = (max: number) =>
  `z.string().check(z.refine((v) => v.length > 0 && v.length <= ${max}, { message: 'must be 1 to ${max} characters', params: { minLength: 1, maxLength: ${max} } }))`;

describe('generated validators', () => {
  it('generates every exported schema and constant, including ones added later', async () => {
    const generated = await generate(`
      export const LIMIT = 8;
      export const CancelMessageSchema = z.object({ messageId: ${length(8)} });`);
    expect(generated['LIMIT']).toBe(8);
    expect(generated['CancelMessageSchema'].safeParse({ messageId: 'm-1', extra: 1 })).toEqual({
      success: true,
      data: { messageId: 'm-1' },
    });
    expect(generated['CancelMessageSchema'].safeParse({ messageId: 'way-too-long' }).error.issues).toEqual([
      { code: 'custom', path: ['messageId'], message: 'must be 1 to 8 characters' },
    ]);
  });

  // The fuzz suite (test/fuzz/inbound.fuzz.spec.ts) compares on what JSON yields; these are the values it never
  // does, and the keys an object inherits names for.
  it('agrees with zod on numbers JSON cannot spell, and on keys named like Object.prototype methods', async () => {
    const { zod, ours } = await generateBoth(`
      export const N = z.number();
      export const O = z.object({ hasOwnProperty: z.optional(z.number()), n: z.optional(z.number()) });
      export const L = z.looseObject({ toString: z.optional(z.string()) });
      export const A = z.array(z.optional(z.number()));`);
    const numbers = [NaN, Infinity, -Infinity, -0, 0, 1.5, Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53];
    const others = ['1', '', null, undefined, true, new Number(1), Object(1n), {}, [], new Array(3).fill(1, 0, 1)];
    const objects: unknown[] = [{ n: NaN }, { n: -Infinity }, { hasOwnProperty: 1 }, { hasOwnProperty: 'x', n: 1 }];
    const named: unknown[] = [
      { toString: 'x', hasOwnProperty: 2, valueOf: 3 },
      { toString: 1, constructor: 'c' },
    ];
    const proto = JSON.parse('{"__proto__": {"n": 1}, "n": 2, "toString": "s"}') as unknown;
    const values = [...numbers, ...others, [1, NaN], [Infinity, 'x'], ...objects, ...named, proto];
    for (const name of ['N', 'O', 'L', 'A'])
      for (const [index, value] of values.entries())
        expect(essentials(ours[name].safeParse(value)), `${name}(values[${index}])`).toEqual(
          essentials(zod[name].safeParse(value)),
        );
    expect(ours['N'].safeParse(NaN).error.issues).toEqual([{ code: 'invalid_type', path: [], expected: 'number' }]);
    expect(ours['L'].safeParse({ hasOwnProperty: 1, toString: 's' })).toEqual({
      success: true,
      data: { toString: 's', hasOwnProperty: 1 },
    });
  });

  it('refuses a schema type it cannot reproduce, naming the export and where', async () => {
    await expect(generate(`export const S = z.object({ a: z.union([z.string(), z.number()]) });`)).rejects.toThrow(
      /S\.a is a z\.union\(\), which scripts\/generate-validators\.mjs cannot generate/,
    );
  });

  it('refuses a refinement that does not state its rule, or states one its function does not follow', async () => {
    await expect(generate(`export const S = z.string().check(z.refine((v) => v !== 'x'));`)).rejects.toThrow(
      /without params \{minLength, maxLength\}/,
    );
    await expect(
      generate(
        `export const S = z.string().check(z.refine((v) => v.length <= 9, { message: 'm', params: { minLength: 1, maxLength: 9 } }));`,
      ),
    ).rejects.toThrow(/disagrees with its params at length 0/);
  });

  it('refuses an export that is neither a schema nor a constant', async () => {
    await expect(generate(`export function describe() { return ''; }`)).rejects.toThrow(
      /export describe is a function; only schemas and constants/,
    );
  });
});
