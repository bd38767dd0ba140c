/**
 * The injected scripts' entries (bridge/startup/global*.ts) evaluated from their source, as a page
 * load evaluates its script, for their specs under test/unit/bridge/startup/. Call it at the top
 * of a spec run under happy-dom: it notes the window's names before each test and takes
 * `ChatBridge` away after it.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import type { ChatBridgeGlobal } from '../../bridge/startup/install.js';

export type TestWindow = Window & typeof globalThis & { ChatBridge?: ChatBridgeGlobal };

export const entryOptions = { baseUrl: 'https://chat.example.test/api/v1', host: 'browser' } as const;

export function entryGlobals() {
  const win = window as TestWindow;
  let before = new Set<string>();
  beforeEach(() => {
    before = new Set(Object.getOwnPropertyNames(win));
  });
  afterEach(() => {
    win.ChatBridge?.destroy();
    delete win.ChatBridge;
  });
  return {
    win,
    /** Evaluates an entry afresh and returns the `ChatBridge` it defined. */
    async evaluate(entry: 'global' | 'global.debug' | 'global.start') {
      vi.resetModules();
      await import(`../../bridge/startup/${entry}.ts`);
      const global = win.ChatBridge;
      if (global === undefined) throw new Error(`${entry}.ts defined no ChatBridge`);
      return global;
    },
    /**
     * The names the entry added to the window. From source, the schemas are zod's, which adds its
     * own globals; the built scripts carry generated validators instead (install.spec.ts checks
     * that they add ChatBridge alone).
     */
    added: () => Object.getOwnPropertyNames(win).filter((name) => !before.has(name) && !name.startsWith('__zod_')),
  };
}
