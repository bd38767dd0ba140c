/**
 * Where the bench finds the libraries it compares against (penpal, post-robot, comlink) and
 * zod: the project's node_modules first (devDependencies), then bench/.deps, a folder filled by
 * `npm install --prefix bench/.deps ...` for machines where they are not devDependencies yet.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SEARCH = [ROOT, join(ROOT, 'bench', '.deps')];

/**
 * The folder whose node_modules holds `name` (use it as esbuild's resolveDir) and the
 * version found there, or undefined when neither place has it.
 * @param {string} name
 * @returns {{ name: string, version: string, resolveDir: string } | undefined}
 */
export function findPackage(name) {
  for (const base of SEARCH) {
    const manifest = join(base, 'node_modules', name, 'package.json');
    if (existsSync(manifest))
      return { name, version: JSON.parse(readFileSync(manifest, 'utf8')).version, resolveDir: base };
  }
  return undefined;
}

/** The install line that makes a missing comparison library available. */
export function installHint(names) {
  return `npm install --prefix bench/.deps ${names.join(' ')}`;
}
