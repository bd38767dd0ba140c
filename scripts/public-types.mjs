// The declarations the package's public entries need: the `types` files of package.json's
// exports and every declaration they import, relative import by relative import. tsc emits one
// for every module of bridge/, host-adapters/ and tools/; the build keeps only these (the
// doctor's internals, tools/testing and the CLI are not part of the package's API), and
// scripts/test-package.mjs checks the tarball against the same walk.
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Relative specifiers in a declaration: `from './x.js'`, `import('./x.js')`. */
const SPECIFIERS = /(?:from\s+|import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * @param {Record<string, unknown>} exports package.json's exports
 * @param {string} typesDir where the declarations are (`dist/types`, or the build's scratch copy)
 * @returns {Set<string>} the needed declarations, as paths relative to `typesDir`
 */
export function publicDeclarations(exports, typesDir) {
  const entries = [];
  const collect = (/** @type {unknown} */ value) => {
    if (value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'types' && typeof inner === 'string' && inner.startsWith('./dist/types/'))
        entries.push(inner.slice('./dist/types/'.length));
      else collect(inner);
    }
  };
  collect(exports);
  const root = resolve(typesDir);
  const needed = new Set();
  const todo = entries.map((entry) => join(root, entry));
  while (todo.length > 0) {
    const file = /** @type {string} */ (todo.pop());
    const name = relative(root, file);
    if (needed.has(name)) continue;
    if (!existsSync(file)) throw new Error(`${name} is named by a public declaration but was not emitted`);
    needed.add(name);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIERS))
      todo.push(resolve(dirname(file), /** @type {string} */ (specifier).replace(/\.js$/, '.d.ts')));
  }
  return needed;
}

/** @param {string} dir @returns {string[]} every file under `dir`, relative to it */
export function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/**
 * Deletes from `typesDir` every declaration the public entries do not need, and the folders
 * left empty.
 * @param {Record<string, unknown>} exports package.json's exports
 * @param {string} typesDir
 */
export function keepPublicDeclarations(exports, typesDir) {
  const needed = publicDeclarations(exports, typesDir);
  for (const file of filesUnder(typesDir)) if (!needed.has(file)) rmSync(join(typesDir, file));
  const folders = readdirSync(typesDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name))
    // Deepest first, so a folder holding only empty folders is empty by its turn.
    .sort((a, b) => b.length - a.length);
  for (const folder of folders) if (readdirSync(folder).length === 0) rmdirSync(folder);
}
