// @vitest-environment happy-dom
/**
 * The three entries of the injected scripts, from their source (bridge/startup/global.ts,
 * global.debug.ts, global.start.ts): each defines `window.ChatBridge` when evaluated, and nothing
 * else. test/unit/bridge/startup/install.spec.ts and test/bundle.spec.ts run the built scripts.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VERSION } from '../../../../bridge/index.js';
import type { ChatBridgeGlobal } from '../../../../bridge/startup/install.js';

type TestWindow = Window & typeof globalThis & { ChatBridge?: ChatBridgeGlobal };
const win = window as TestWindow;
const options = { baseUrl: 'https://chat.example.test/api/v1', host: 'browser' } as const;

/** Evaluates an entry afresh, as a page load evaluates its script. */
const evaluate = async (entry: string) => {
  vi.resetModules();
  await import(`../../../../bridge/startup/${entry}`);
  const global = win.ChatBridge;
  if (global === undefined) throw new Error(`${entry} defined no ChatBridge`);
  return global;
};

let before: Set<string>;
beforeEach(() => {
  before = new Set(Object.getOwnPropertyNames(win));
});
afterEach(() => {
  win.ChatBridge?.destroy();
  delete win.ChatBridge;
});
// From source, the schemas are zod's, which adds its own globals; the built scripts carry
// generated validators instead (install.spec.ts checks that they add ChatBridge alone).
const added = () => Object.getOwnPropertyNames(win).filter((name) => !before.has(name) && !name.startsWith('__zod_'));

describe('the version', () => {
  it("is package.json's: the globals, the bridges and the ES module entry say the version the package has", async () => {
    // Paths from the file's own location (happy-dom replaces the global URL).
    const packageJson = resolve(fileURLToPath(import.meta.url), '../../../../../package.json');
    const { version } = JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string };
    expect(VERSION).toBe(version);
    const global = await evaluate('global.ts');
    expect(global.version).toBe(version);
    expect(global.install(options).version).toBe(version);
  });
});

describe('global.ts (dist/chat-bridge.js)', () => {
  it('defines ChatBridge alone, which installs a bridge but refuses record: true', async () => {
    const global = await evaluate('global.ts');
    expect(added()).toEqual(['ChatBridge']);
    expect(global.install(options).host).toBe('browser');
    expect(() => global.install({ ...options, record: true })).toThrow(/inject dist\/chat-bridge\.debug\.js/);
  });
});

describe('global.debug.ts (dist/chat-bridge.debug.js)', () => {
  it('defines ChatBridge alone, which records with record: true', async () => {
    const global = await evaluate('global.debug.ts');
    expect(added()).toEqual(['ChatBridge']);
    global.install({ ...options, record: true });
    global.receive({ id: 'd1', method: 'nope' });
    expect(global.recording()).toContain('"d1"');
  });
});

describe('global.start.ts (dist/chat-bridge.start.js)', () => {
  it('defines the starter as ChatBridge alone: no bridge until a bundle comes', async () => {
    const global = await evaluate('global.start.ts');
    expect(added()).toEqual(['ChatBridge']);
    expect(global.version).toBe('starter');
    global.install(options);
    expect(global.bridge).toBeUndefined();
  });

  it('a bundle evaluated after it takes its place and what it kept', async () => {
    const starter = await evaluate('global.start.ts');
    starter.install(options);
    starter.receive({ id: 'early', method: 'nope' });
    const delivered: unknown[] = [];
    const collect = (event: Event) => void delivered.push((event as CustomEvent).detail);
    win.addEventListener('chatbridge', collect);
    try {
      const bundle = await evaluate('global.ts');
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
