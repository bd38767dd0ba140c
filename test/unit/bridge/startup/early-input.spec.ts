// @vitest-environment happy-dom
/**
 * What a ChatBridge global takes in before its bridge exists (bridge/startup/early-input.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineGlobal, installInjected, installOptions } from '../../../../bridge/startup/early-input.js';

type TestWindow = Window & typeof globalThis & { ChatBridge?: unknown; chatBridgeSettings?: unknown };
const win = window as TestWindow;

afterEach(() => {
  delete win.ChatBridge;
  delete win.chatBridgeSettings;
  vi.restoreAllMocks();
});

describe('defineGlobal', () => {
  it("defines window.ChatBridge: enumerable, not writable, but configurable, so a bundle can take a starter's place", () => {
    const first = { name: 'first' };
    defineGlobal(win, first);
    expect(Object.getOwnPropertyDescriptor(win, 'ChatBridge')).toEqual({
      value: first,
      enumerable: true,
      configurable: true,
      writable: false,
    });
    // Modules are strict: assigning a property that is not writable throws.
    expect(() => {
      win.ChatBridge = { name: 'page' };
    }).toThrow(TypeError);
    const second = { name: 'second' };
    defineGlobal(win, second);
    expect(win.ChatBridge).toBe(second);
  });
});

describe('installOptions', () => {
  const BASE_URL = 'https://chat.example.test/api/v1';

  it("takes an injected channelSecret out of window.chatBridgeSettings, and keeps it for the window's later installs", () => {
    const secret = 'a-secret-of-24-characters';
    // A window of its own: what installOptions keeps is the window's.
    const page = { location: window.location, chatBridgeSettings: { baseUrl: BASE_URL, channelSecret: secret } };
    const own = page as unknown as Window;
    expect(installOptions(own, {}).resolved.channelSecret).toBe(secret);
    expect(page.chatBridgeSettings).toEqual({ baseUrl: BASE_URL });
    // A later install (the page's, or the host's again) still has it; options given win.
    expect(installOptions(own, { websiteToken: 'wt_other_inbox' }).resolved.channelSecret).toBe(secret);
    expect(installOptions(own, { channelSecret: 'another-secret-16+' }).resolved.channelSecret).toBe(
      'another-secret-16+',
    );
    expect(installOptions(win, { baseUrl: BASE_URL }).resolved.channelSecret).toBeUndefined();
  });

  it('merges the options given over window.chatBridgeSettings, and resolves them', () => {
    win.chatBridgeSettings = { baseUrl: 'https://ignored.example.test', browserEvent: 'acme-chat' };
    const { merged, resolved } = installOptions(win, { baseUrl: BASE_URL, host: 'browser' });
    expect(merged).toEqual({ baseUrl: BASE_URL, browserEvent: 'acme-chat', host: 'browser' });
    expect(resolved).toMatchObject({ baseUrl: BASE_URL, browserEvent: 'acme-chat', host: 'browser' });
  });

  it('ignores settings that are not an object (a string would otherwise spread into keys)', () => {
    win.chatBridgeSettings = 'baseUrl';
    expect(installOptions(win, { baseUrl: BASE_URL }).merged).toEqual({ baseUrl: BASE_URL });
  });

  it('throws an OptionsError naming the bad option', () => {
    expect(() => installOptions(win, { baseUrl: 'ftp://chat.example.test' })).toThrow(
      expect.objectContaining({ name: 'OptionsError', message: expect.stringContaining('"baseUrl"') }),
    );
  });
});

describe('installInjected', () => {
  it('installs with injected settings that are an object, and not otherwise', () => {
    const install = vi.fn();
    for (const settings of [undefined, null, 'x', 1]) installInjected(install, settings);
    expect(install).not.toHaveBeenCalled();
    installInjected(install, { baseUrl: 'x' });
    expect(install).toHaveBeenCalledWith({ baseUrl: 'x' });
  });

  it('reports what install throws on the console and does not throw itself', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const refusal = new Error('bad settings');
    expect(() =>
      installInjected(() => {
        throw refusal;
      }, {}),
    ).not.toThrow();
    expect(logged).toHaveBeenCalledWith(refusal);
  });
});
