// @ts-check
/**
 * Tools `npm run test:native` needs that are too big to be devDependencies everyone installs
 * (kotlinc, the grammar builds): each is fetched once from the npm registry with `npm pack` at a
 * pinned version, checked against a pinned sha512 and unpacked into a cache outside node_modules.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const CACHE =
  process.env['CHAT_BRIDGE_CACHE'] ?? join(process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'chat-bridge');

/**
 * @param {string} message
 * @returns {never}
 */
export function fail(message) {
  console.error(`test:native: ${message}`);
  process.exit(1);
}

/**
 * The unpacked folder of [name]@[version], fetched and verified on first use.
 * @param {string} name
 * @param {string} version
 * @param {string} integrity the tarball's sha512, as `npm view <name>@<version> dist.integrity` prints it
 * @param {string} marker a file inside the package that says the cached copy is complete
 */
export function cachedPackage(name, version, integrity, marker) {
  const home = join(CACHE, `${name.replace('/', '+')}-${version}`);
  if (existsSync(join(home, marker))) return home;
  mkdirSync(CACHE, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'chat-bridge-fetch-'));
  try {
    console.log(`Fetching ${name}@${version} from the npm registry (once)...`);
    execFileSync('npm', ['pack', `${name}@${version}`, '--pack-destination', work, '--silent'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
    if (!tarball) fail(`npm pack ${name}@${version} produced no tarball`);
    const digest = `sha512-${createHash('sha512')
      .update(readFileSync(join(work, tarball)))
      .digest('base64')}`;
    if (digest !== integrity) fail(`${name}@${version} has integrity ${digest}, expected ${integrity}`);
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', join(work, tarball), '-C', unpacked]);
    rmSync(home, { recursive: true, force: true });
    execFileSync('mv', [join(unpacked, 'package'), home]);
    if (!existsSync(join(home, marker))) fail(`${name}@${version} has no ${marker}`);
    return home;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
