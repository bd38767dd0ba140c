/**
 * scripts/generate-validators.mjs, the validators the injected bundle carries instead of zod:
 * it picks up whatever the schemas module exports, and refuses (failing the build) what it cannot
 * reproduce exactly. That it agrees with zod on everything is the fuzz suite's last property.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
