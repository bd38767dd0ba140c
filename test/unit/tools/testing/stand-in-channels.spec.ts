import { describe, expect, it } from 'vitest';
import { adapters, createBridge, HOST_NAMES, normalizeOptions, type HostName } from '../../../../bridge/index.js';
import { installStandIns } from '../../../../tools/testing/stand-in-channels.js';
import { createInMemoryEnvironment } from '../../../../tools/testing/in-memory-environment.js';

const NAMES = {
  androidChannel: 'MyAndroid',
  iosHandler: 'myHandler',
  flutterChannel: 'MyFlutter',
  browserEvent: 'my-event',
};

describe('stand-in channels', () => {
  it.each(HOST_NAMES)('puts the %s stand-in where its adapter looks, under custom channel names too', (host) => {
    const scope: Record<string, unknown> = {};
    const received: unknown[] = [];
    installStandIns(scope, [host], (_host, payload) => received.push(payload), NAMES);
    const post = adapters[host].find(scope, NAMES);
    expect(post).toBeDefined();
    post?.(adapters[host].encode({ type: 'ready' }));
    expect(received).toHaveLength(1);
  });

  it('hands string channels a string, and iOS and browser a copy of the object', () => {
    const scope: Record<string, unknown> = {};
    const received: Array<{ host: HostName; payload: unknown }> = [];
    installStandIns(scope, HOST_NAMES, (host, payload) => received.push({ host, payload }));
    const sent = { type: 'ready' };
    for (const host of HOST_NAMES)
      adapters[host].find(scope, normalizeOptions({ baseUrl: 'https://x.test' }, ''))?.(sent);
    const byHost = Object.fromEntries(received.map(({ host, payload }) => [host, payload]));
    expect(byHost['android']).toBe('[object Object]');
    expect(byHost['flutter']).toBe('[object Object]');
    expect(byHost['react-native']).toBe('[object Object]');
    expect(byHost['ios']).toEqual(sent);
    expect(byHost['ios']).not.toBe(sent);
    expect(byHost['browser']).toEqual(sent);
    expect(byHost['browser']).not.toBe(sent);
  });

  it('removes what it installed, leaving no channel for the adapters to find', () => {
    const scope: Record<string, unknown> = {};
    const remove = installStandIns(scope, HOST_NAMES, () => {});
    remove();
    const names = normalizeOptions({ baseUrl: 'https://x.test' }, '');
    for (const host of HOST_NAMES) expect(adapters[host].find(scope, names)).toBeUndefined();
  });

  it('gives the in-memory environment only the channels asked for, so the bridge detects that host', () => {
    const memory = createInMemoryEnvironment({ channels: ['flutter'], fetch: () => Promise.reject(new Error('no')) });
    const bridge = createBridge(normalizeOptions({ baseUrl: 'https://x.test' }, memory.env.pageOrigin), memory.env);
    expect(bridge.host).toBe('flutter');
    expect(memory.deliveries).toEqual([{ host: 'flutter', payload: '{"type":"ready"}' }]);
    bridge.destroy();
  });
});
