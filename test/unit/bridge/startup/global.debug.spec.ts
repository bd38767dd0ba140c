// @vitest-environment happy-dom
/**
 * The entry of the debug bundle, from its source (bridge/startup/global.debug.ts): the same
 * `window.ChatBridge` as global.ts (global.spec.ts), with the recorder that `record: true` needs.
 */
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../../../bridge/index.js';
import { entryGlobals, entryOptions as options } from '../../../helpers/entry-global.js';

const { evaluate, added } = entryGlobals();

describe('global.debug.ts (dist/chat-bridge.debug.js)', () => {
  it('defines ChatBridge alone, which records with record: true', async () => {
    const global = await evaluate('global.debug');
    expect(added()).toEqual(['ChatBridge']);
    global.install({ ...options, record: true });
    global.receive({ id: 'd1', method: 'nope' });
    expect(global.recording()).toContain('"d1"');
  });

  it("is the bundle's global otherwise: a bridge of the package's version, and no recording without record: true", async () => {
    const global = await evaluate('global.debug');
    expect(global.version).toBe(VERSION);
    const bridge = global.install(options);
    expect(bridge.host).toBe('browser');
    expect(bridge.version).toBe(VERSION);
    global.receive({ id: 'd2', method: 'nope' });
    expect(global.recording()).not.toContain('"d2"');
  });
});
