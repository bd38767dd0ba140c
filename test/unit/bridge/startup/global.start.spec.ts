// @vitest-environment happy-dom
/**
 * The entry of the starter, from its source (bridge/startup/global.start.ts): `window.ChatBridge`
 * is the starter (starter.ts, checked in starter.spec.ts), which a bundle evaluated after it
 * replaces. global.spec.ts checks the bundle's own entry.
 */
import { describe, expect, it } from 'vitest';
import { entryGlobals, entryOptions as options } from '../../../helpers/entry-global.js';

const { win, evaluate, added } = entryGlobals();

describe('global.start.ts (dist/chat-bridge.start.js)', () => {
  it('defines the starter as ChatBridge alone: no bridge until a bundle comes', async () => {
    const global = await evaluate('global.start');
    expect(added()).toEqual(['ChatBridge']);
    expect(global.version).toBe('starter');
    global.install(options);
    expect(global.bridge).toBeUndefined();
  });

  it('a bundle evaluated after it takes its place and what it kept', async () => {
    const starter = await evaluate('global.start');
    starter.install(options);
    starter.receive({ id: 'early', method: 'nope' });
    const delivered: unknown[] = [];
    const collect = (event: Event) => void delivered.push((event as CustomEvent).detail);
    win.addEventListener('chatbridge', collect);
    try {
      const bundle = await evaluate('global');
      expect(bundle).not.toBe(starter);
      expect(bundle.bridge?.host).toBe('browser');
      expect(delivered).toEqual([
        { type: 'ready' },
        expect.objectContaining({ type: 'response', id: 'early', ok: false }),
        expect.objectContaining({ type: 'error', code: 'unknown_method' }),
      ]);
    } finally {
      win.removeEventListener('chatbridge', collect);
    }
  });
});
