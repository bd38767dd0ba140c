/**
 * The ES module entry (`chat-bridge`): the names it gives hosts and the Node tools at run time
 * (the contract, with the wire format: renaming or dropping one breaks a host), what its header
 * says it leaves out, and that importing it changes nothing global. Its types are
 * test/types/public-api.test-d.ts's.
 */
import { describe, expect, it, vi } from 'vitest';

const load = () => import('../../../bridge/index.js');

/** Every run-time export of bridge/index.ts. A change here is a change of the public API (CHANGELOG.md). */
const PUBLIC_NAMES = [
  'DEFAULTS',
  'ErrorCode',
  'BACKENDS',
  'HOST_NAMES',
  'MIN_TOKEN_LENGTH',
  'OptionsError',
  'REDACTED',
  'VERSION',
  'adapters',
  'authTokenOf',
  'browserEnvironment',
  'createBridge',
  'createGlobal',
  'createRecorder',
  'createRedactor',
  'errorMessageOf',
  'normalizeOptions',
  'parseJson',
];

describe('the chat-bridge entry', () => {
  it('exports exactly the public names at run time', async () => {
    expect(Object.keys(await load()).sort()).toEqual([...PUBLIC_NAMES].sort());
  });

  it('leaves out inbound parsing, the schemas, the dispatch and the outbox, as its header says', async () => {
    const exported = new Set<unknown>(Object.values(await load()));
    const internals = await Promise.all([
      import('../../../bridge/inbound/classify.js'),
      import('../../../bridge/inbound/oversize.js'),
      import('../../../bridge/protocol/schemas.js'),
      import('../../../bridge/dispatch/host-commands.js'),
      import('../../../bridge/dispatch/command-runner.js'),
      import('../../../bridge/backend/outbox.js'),
      import('../../../bridge/backend/api.js'),
    ]);
    for (const module of internals)
      for (const [name, value] of Object.entries(module)) expect(exported.has(value), name).toBe(false);
  });

  it('gives the recorder-carrying createBridge, not the plain one the injected bundle uses', async () => {
    const entry = await load();
    const plain = await import('../../../bridge/bridge.js');
    expect(entry.createBridge).not.toBe(plain.createBridge);
    expect(entry.createBridge).toBe((await import('../../../bridge/startup/with-recorder.js')).createBridge);
  });

  it('adds nothing to the global object when imported', async () => {
    // A fresh module graph, so the entry and everything it imports are evaluated here.
    vi.resetModules();
    const before = new Set(Object.getOwnPropertyNames(globalThis));
    const entry = await load();
    expect(entry.VERSION).toEqual(expect.any(String));
    expect(Object.getOwnPropertyNames(globalThis).filter((name) => !before.has(name))).toEqual([]);
    expect('ChatBridge' in globalThis).toBe(false);
  });
});
