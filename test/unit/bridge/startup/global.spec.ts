// @vitest-environment happy-dom
/**
 * The entry of the injectable bundle, from its source (bridge/startup/global.ts): it defines
 * `window.ChatBridge` when evaluated, and nothing else. global.debug.spec.ts and
 * global.start.spec.ts check the other two entries; test/unit/bridge/startup/install.spec.ts and
 * test/bundle.spec.ts run the built scripts.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../../../bridge/index.js';
import { entryGlobals, entryOptions as options } from '../../../helpers/entry-global.js';

const { evaluate, added } = entryGlobals();

describe('the version', () => {
  it("is package.json's: the globals, the bridges and the ES module entry say the version the package has", async () => {
    // Paths from the file's own location (happy-dom replaces the global URL).
    const packageJson = resolve(fileURLToPath(import.meta.url), '../../../../../package.json');
    const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
    expect(VERSION).toBe(version);
    const global = await evaluate('global');
    expect(global.version).toBe(version);
    expect(global.install(options).version).toBe(version);
  });
});

describe('global.ts (dist/chat-bridge.js)', () => {
  it('defines ChatBridge alone, which installs a bridge but refuses record: true', async () => {
    const global = await evaluate('global');
    expect(added()).toEqual(['ChatBridge']);
    expect(global.install(options).host).toBe('browser');
    expect(() => global.install({ ...options, record: true })).toThrow(/needs dist\/chat-bridge\.debug\.js/);
  });
});
