// @vitest-environment node
/**
 * Modules a reader holds in one sitting (issue 24): no file of the runtime or the app side over
 * 300 lines, and no function over 80 lines unless its module's header names it and says why
 * ("<name> runs past 80 lines ..." or "runs a few lines past 80"): a factory whose short inner
 * functions share one closure's state is such a reason; a long function that does many things is
 * not. None runs past 100 lines, reason or not (issue 37).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 80;
/** Past this no header's reason counts (issue 37: the outbox's createSender and createOutbox were the last). */
const HARD_FUNCTION_LINES = 100;

const files = (dir: string, pattern: RegExp) =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .map((name) => `${dir}/${name.split('\\').join('/')}`)
    .filter((path) => pattern.test(path) && !path.includes('/.'));

const sources = ['bridge', 'host-adapters'].flatMap((dir) => files(dir, /\.(ts|kt|swift|dart)$/));
const typescript = sources.filter((path) => path.endsWith('.ts'));

/** The functions of a TypeScript source longer than `limit` lines, by name (a variable's, where it has none). */
export function longFunctions(source: string, limit: number): Array<{ name: string; lines: number }> {
  const file = ts.createSourceFile('module.ts', source, ts.ScriptTarget.Latest, true);
  const found: Array<{ name: string; lines: number }> = [];
  const lineOf = (position: number) => file.getLineAndCharacterOfPosition(position).line;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart()) + 1;
      const named = node.name ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined);
      if (lines > limit) found.push({ name: named ? named.getText() : '(anonymous)', lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The module's first block comment. */
const headerOf = (source: string) => /^\s*(?:\/\/[^\n]*\n\s*)*\/\*\*?([\s\S]*?)\*\//.exec(source)?.[1] ?? '';

describe('modules a reader holds in one sitting', () => {
  it(`has no file in bridge/ or host-adapters/ over ${MAX_FILE_LINES} lines`, () => {
    expect(sources.length).toBeGreaterThan(60);
    const long = sources
      .map((path) => ({ path, lines: readFileSync(join(ROOT, path), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_FILE_LINES);
    expect(long).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines without a reason in its module's header`, () => {
    const unexplained = typescript.flatMap((path) => {
      const source = readFileSync(join(ROOT, path), 'utf8');
      const header = headerOf(source).replace(/\s*\n\s*\*\s*/g, ' ');
      return longFunctions(source, MAX_FUNCTION_LINES)
        .filter(({ name }) => !new RegExp(`\\b${name} runs (a few lines )?past ${MAX_FUNCTION_LINES}`).test(header))
        .map(({ name, lines }) => `${path}: ${name} (${lines} lines)`);
    });
    expect(unexplained).toEqual([]);
  });

  it(`has no function in bridge/ or host-adapters/ over ${HARD_FUNCTION_LINES} lines, whatever its header says`, () => {
    const long = typescript.flatMap((path) =>
      longFunctions(readFileSync(join(ROOT, path), 'utf8'), HARD_FUNCTION_LINES).map(
        ({ name, lines }) => `${path}: ${name} (${lines} lines)`,
      ),
    );
    expect(long).toEqual([]);
  });

  it('finds a long function by its own name or its variable name, and none in short code', () => {
    const body = Array.from({ length: 90 }, (_, index) => `  const a${index} = ${index};`).join('\n');
    expect(longFunctions(`export function big() {\n${body}\n}`, 80)).toEqual([{ name: 'big', lines: 92 }]);
    expect(longFunctions(`export const made = () => {\n${body}\n};`, 80)).toEqual([{ name: 'made', lines: 92 }]);
    expect(longFunctions('export function small() {\n  return 1;\n}', 80)).toEqual([]);
  });
});
