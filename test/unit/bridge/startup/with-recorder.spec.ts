// @vitest-environment happy-dom
/**
 * createBridge and createGlobal with the recorder plugged in, as the ES module entry exports them
 * (bridge/startup/with-recorder.ts): `record: true` works without the debug bundle.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createBridge as createPlainBridge } from '../../../../bridge/bridge.js';
import { normalizeOptions } from '../../../../bridge/options.js';
import { createBridge, createGlobal } from '../../../../bridge/startup/with-recorder.js';
import { createInMemoryEnvironment } from '../../../../tools/testing/in-memory-environment.js';

const BASE_URL = 'https://chat.example.test/api/v1';
const noFetch = () => Promise.reject(new Error('no request in this test'));
const cleanups: Array<() => void> = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

describe('createBridge', () => {
  it('records with record: true, where the plain one refuses it', () => {
    const t = createInMemoryEnvironment({ fetch: noFetch });
    const options = normalizeOptions({ baseUrl: BASE_URL, host: 'browser', record: true }, t.env.pageOrigin);
    expect(() => createPlainBridge(options, t.env)).toThrow(/"record" needs dist\/chat-bridge\.debug\.js/);

    const bridge = createBridge(options, t.env);
    cleanups.push(() => bridge.destroy());
    bridge.receive({ id: 'r1', method: 'nope' });
    const steps = bridge
      .recording()
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { step: string }).step);
    expect(steps).toContain('config');
    expect(steps).toContain('host');
  });
});

describe('createGlobal', () => {
  it('installs with record: true and records what the bridge is handed', () => {
    const global = createGlobal(window as Window & typeof globalThis);
    cleanups.push(() => global.destroy());
    global.install({ baseUrl: BASE_URL, host: 'browser', record: true });
    global.receive({ id: 'g1', method: 'nope' });
    expect(global.recording()).toContain('"step":"host"');
    expect(global.recording()).toContain('"g1"');
  });
});
