// @vitest-environment node
/**
 * The "Layers" section of docs/architecture.md is the rule of `bridge/`'s imports: each module imports
 * from its own layer and earlier ones only, and no imports go round in a circle. This reads the
 * layers from the page and every import of `bridge/`, `host-adapters/` and `tools/` from the source
 * (type-only imports included), so the page and the code cannot drift apart.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const start = page.indexOf('## Layers\n');
const section = page.slice(start, page.indexOf('\n## ', start + 1));

/** The layers, first to last: each the paths its numbered item names (a folder ends in "/"). */
function layersOf(text: string): string[][] {
  const items = text.split(/\n(?=\d+\. )/).filter((item) => /^\d+\. /.test(item));
  return items.map((item) => [...(item.split(':')[0] ?? '').matchAll(/`(bridge\/[^`]+)`/g)].map((match) => match[1]!));
}
const LAYERS = layersOf(section);

/** Every TypeScript file under `dir`, as a path from the root. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The project files `file` imports (static, type-only, re-exports and `import()`), as paths from the root. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => {
      const path = relative(ROOT, join(ROOT, dirname(file), name));
      const candidates = [
        path.replace(/\.js$/, '.ts'),
        path.replace(/\.js$/, '.tsx'),
        `${path}.ts`,
        `${path}/index.ts`,
      ];
      return candidates.find((candidate) => existsSync(join(ROOT, candidate))) ?? path;
    });
}

/** The index of the layer `file` belongs to, or -1. */
const layerOf = (file: string) =>
  LAYERS.findIndex((paths) => paths.some((path) => (path.endsWith('/') ? file.startsWith(path) : file === path)));

const BRIDGE = sources('bridge');
const GRAPH = new Map(BRIDGE.map((file) => [file, importsOf(file).filter((target) => target.startsWith('bridge/'))]));

/** Each import circle once, as the files in their import order, the first repeated at the end. */
function circlesOf(graph: Map<string, string[]>): string[][] {
  const circles: string[][] = [];
  const done = new Set<string>();
  const trail: string[] = [];
  const visit = (file: string) => {
    const at = trail.indexOf(file);
    if (at >= 0) return void circles.push([...trail.slice(at), file]);
    if (done.has(file)) return;
    trail.push(file);
    for (const target of graph.get(file) ?? []) visit(target);
    trail.pop();
    done.add(file);
  };
  [...graph.keys()].sort().forEach(visit);
  return circles;
}

describe("docs/architecture.md's Layers section", () => {
  it('lists layers that exist, each path in one layer only', () => {
    expect(LAYERS.length).toBeGreaterThan(8);
    const named = LAYERS.flat();
    expect(new Set(named).size).toBe(named.length);
    for (const path of named) expect(existsSync(join(ROOT, path)), path).toBe(true);
  });

  it('places every module of bridge/ in a layer', () => {
    expect(BRIDGE.length).toBeGreaterThan(40);
    expect(BRIDGE.filter((file) => layerOf(file) < 0)).toEqual([]);
  });

  it('has no import in bridge/ from a later layer to an earlier one', () => {
    const upward = [...GRAPH].flatMap(([file, targets]) =>
      targets
        .filter((target) => layerOf(target) > layerOf(file))
        .map((target) => `${file} (layer ${layerOf(file) + 1}) imports ${target} (layer ${layerOf(target) + 1})`),
    );
    expect(upward).toEqual([]);
  });

  it('has no import circle in bridge/', () => {
    expect(circlesOf(GRAPH).map((circle) => circle.join(' → '))).toEqual([]);
  });

  it('has no import circle in host-adapters/ or tools/ either', () => {
    const files = [...sources('host-adapters'), ...sources('tools')];
    const graph = new Map(files.map((file) => [file, importsOf(file).filter((target) => files.includes(target))]));
    expect(graph.size).toBeGreaterThan(30);
    expect(circlesOf(graph).map((circle) => circle.join(' → '))).toEqual([]);
  });

  it('lets host-adapters/ import bridge/ only through protocol/ and the package entry, tools/ only through the entry', () => {
    const stray = [...sources('host-adapters'), ...sources('tools')].flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('bridge/') && target !== 'bridge/index.ts')
        .filter((target) => !(file.startsWith('host-adapters/') && target.startsWith('bridge/protocol/')))
        .map((target) => `${file} imports ${target}`),
    );
    expect(stray).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('finds a circle, and none where there is none', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ]);
    expect(circlesOf(graph)).toEqual([['a', 'b', 'c', 'a']]);
    expect(
      circlesOf(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads the layers in order, folders and files alike', () => {
    expect(layersOf('1. `bridge/a/`: x `bridge/z.ts`.\n2. `bridge/b.ts` `bridge/c.ts`: y\n')).toEqual([
      ['bridge/a/'],
      ['bridge/b.ts', 'bridge/c.ts'],
    ]);
  });

  it('reads type-only imports, re-exports and multi-line imports', () => {
    expect(GRAPH.get('bridge/index.ts')).toContain('bridge/protocol/command-results.ts');
  });
});
