// @vitest-environment node
/**
 * The "Layout" section of docs/architecture.md is how a newcomer finds their way: every folder of the runtime,
 * the app side and the tools is in it, and every file or folder it names exists. And test/unit/ mirrors
 * bridge/ and host-adapters/ as the section says: each runtime module has its spec at its own path.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const section = page.slice(page.indexOf('## Layout\n'), page.indexOf('\n## ', page.indexOf('## Layout\n') + 1));
const tree = /```\n([\s\S]*?)```/.exec(section)?.[1] ?? '';

interface Entry {
  path: string;
  /** The entry's description, continuation lines included. */
  text: string;
}

/** The tree's entries as paths (indentation says which folder an entry belongs to), each with its description. */
function entries(): Entry[] {
  const found: Entry[] = [];
  const parents: Array<{ indent: number; path: string }> = [];
  for (const line of tree.split('\n')) {
    const match = /^( *)(\S+)/.exec(line);
    if (match === null) continue;
    const indent = (match[1] ?? '').length;
    // Continuation lines of a description are indented past any entry name's column.
    if (indent >= 20) {
      const last = found[found.length - 1];
      if (last !== undefined) last.text += ` ${line.trim()}`;
      continue;
    }
    while (parents.length > 0 && (parents[parents.length - 1]?.indent ?? 0) >= indent) parents.pop();
    const base = parents[parents.length - 1]?.path ?? '';
    // "global.ts install.ts": several files on one line, then the description.
    const [head = '', ...rest] = line.trim().split(/\s{2,}/);
    const names = head.split(' ');
    for (const name of names) found.push({ path: base + name, text: rest.join(' ') });
    if (names.length === 1 && head.endsWith('/')) parents.push({ indent, path: base + head });
  }
  return found;
}
const namedPaths = () => entries().map((entry) => entry.path);

const folders = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((name) => statSync(join(ROOT, dir, name)).isDirectory())
    .map((name) => `${dir}/${name}/`);

describe("docs/architecture.md's Layout section", () => {
  it('names only files and folders that exist', () => {
    const paths = namedPaths();
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) expect(statSync(join(ROOT, path), { throwIfNoEntry: false }), path).toBeDefined();
  });

  it("names in a folder's description only TypeScript files that exist", () => {
    let checked = 0;
    for (const { path, text } of entries()) {
      if (!path.endsWith('/')) continue;
      // A bare name is in the folder; a path ("bridge/index.ts") is from the root.
      for (const file of text.match(/[\w/-]+\.ts\b/g) ?? []) {
        checked++;
        const where = file.includes('/') ? file : `${path}${file}`;
        expect(statSync(join(ROOT, where), { throwIfNoEntry: false }), where).toBeDefined();
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('names every folder of bridge/, host-adapters/ and tools/', () => {
    const paths = new Set(namedPaths());
    const expected = [
      'bridge/',
      'host-adapters/',
      'tools/',
      ...folders('bridge'),
      ...folders('bridge/outbound'),
      ...folders('tools'),
    ];
    for (const folder of expected) expect(paths.has(folder), folder).toBe(true);
  });

  it('says which parts run in the WebView, which in the app and which in Node', () => {
    expect(tree).toMatch(/^bridge\/\s+runs in the WebView/m);
    expect(tree).toMatch(/^host-adapters\/\s+runs in the app/m);
    expect(tree).toMatch(/^tools\/\s+runs in Node/m);
  });
});

/**
 * Modules that export nothing at run time (their JavaScript is empty once the types are gone): no
 * behaviour to assert, so no spec. Checked both ways below: a module that gains a run-time export
 * leaves this list, and a new types-only module joins it.
 */
const TYPES_ONLY = [
  'bridge/backend/outbox/settings.ts', // what the outbox's parts are made with
  'bridge/protocol/command-results.ts', // what each host command answers with, for the typed client
  'bridge/protocol/messages.ts', // the shapes of what the bridge sends the host
  'bridge/recording/plug-in.ts', // where a recorder plugs into a bridge
  'host-adapters/client-transport.ts', // the one interface a host implements for the typed client
];

/** Every TypeScript file under `dir` (the native packages' folders hold none), as a path from the root. */
function typescriptFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) =>
      relative(ROOT, join(ROOT, dir, name))
        .split('\\')
        .join('/'),
    )
    .sort();
}
const modules = [...typescriptFiles('bridge'), ...typescriptFiles('host-adapters')];
const specOf = (module: string) => `test/unit/${module.replace(/\.ts$/, '.spec.ts')}`;
/** Whether a module runs anything: its JavaScript, with the types stripped, is not empty. */
const runsCode = (module: string) =>
  transformSync(readFileSync(join(ROOT, module), 'utf8'), { loader: 'ts', format: 'esm' }).code.trim() !== '';

describe('test/unit/ mirrors bridge/ and host-adapters/', () => {
  it("has a spec at test/unit/<the module's path>.spec.ts for every runtime module", () => {
    expect(modules.length).toBeGreaterThan(40);
    const missing = modules.filter((module) => !TYPES_ONLY.includes(module) && !existsSync(join(ROOT, specOf(module))));
    expect(missing).toEqual([]);
  });

  it('exempts exactly the modules that export nothing at run time', () => {
    expect(modules.filter((module) => !runsCode(module))).toEqual([...TYPES_ONLY].sort());
  });

  it('has no spec there without its module', () => {
    const specs = ['bridge', 'host-adapters'].flatMap((dir) =>
      readdirSync(join(ROOT, 'test/unit', dir), { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.spec.ts'))
        .map((name) => `${dir}/${name.split('\\').join('/')}`),
    );
    expect(specs.length).toBeGreaterThan(30);
    const orphans = specs.filter((spec) => !existsSync(join(ROOT, spec.replace(/\.spec\.ts$/, '.ts'))));
    expect(orphans).toEqual([]);
  });
});
