// @vitest-environment happy-dom
/**
 * The bridge built in the task after install, or at its first use (bridge/startup/deferred-start.ts),
 * with a stand-in for createBridge that records what reaches it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bridge } from '../../../../bridge/bridge.js';
import type { Environment, InboundMessage } from '../../../../bridge/environment.js';
import { deferredBridge } from '../../../../bridge/startup/deferred-start.js';
import { createEarlyBuffer } from '../../../../bridge/startup/early-buffer.js';

const win = window as Window & typeof globalThis;
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
const post = (data: unknown) => win.dispatchEvent(new MessageEvent('message', { data, origin: '' }));

/** What the built bridge saw, in order: messages, connectivity changes and commands. */
let seen: string[] = [];
let builds = 0;
const removers: Array<() => void> = [];
const build = (env: Environment): Bridge => {
  builds++;
  removers.push(
    env.onMessage((message: InboundMessage) => seen.push(`message ${String(message.data)}`)),
    env.onConnectivityChange((online) => seen.push(online ? 'online' : 'offline')),
  );
  return {
    version: 'test',
    host: 'browser',
    receive: (data) => void seen.push(`command ${String(data)}`),
    on: () => () => undefined,
    recording: () => 'recorded',
    stats: () => ({ pendingCommands: 0, outbox: 0, undelivered: 0 }),
    destroy: (why) => void seen.push(`destroyed ${String(why)}`),
  };
};

afterEach(() => {
  removers.splice(0).forEach((remove) => remove());
  seen = [];
  builds = 0;
});

describe('deferredBridge', () => {
  it('builds the bridge in the task after, not before', async () => {
    deferredBridge(win, build, createEarlyBuffer(win));
    expect(builds).toBe(0);
    await nextTask();
    expect(builds).toBe(1);
  });

  it('hands the bridge the window events of the meantime, in order, ahead of anything later', async () => {
    const buffer = createEarlyBuffer(win, { events: [new MessageEvent('message', { data: 'earlier' })], commands: [] });
    deferredBridge(win, build, buffer);
    post('one');
    win.dispatchEvent(new Event('offline'));
    post('two');
    await nextTask();
    post('later');
    expect(seen).toEqual(['message earlier', 'message one', 'offline', 'message two', 'message later']);
    // The buffer was emptied into the bridge and listens no more.
    expect(buffer.take()).toEqual({ events: [], commands: [], dropped: 0 });
  });

  it('builds it at once where commands wait, handing them over after the events kept, in order', () => {
    const buffer = createEarlyBuffer(win, {
      events: [new MessageEvent('message', { data: 'earlier' })],
      commands: ['first', 'second'],
    });
    deferredBridge(win, build, buffer);
    expect(builds).toBe(1);
    expect(seen).toEqual(['message earlier', 'command first', 'command second']);
  });

  it('a command that builds it comes after the events kept', () => {
    const bridge = deferredBridge(win, build, createEarlyBuffer(win));
    post('kept');
    bridge.receive('command');
    expect(seen).toEqual(['message kept', 'command command']);
  });

  it('builds at once when anything needs it, and once only', async () => {
    const bridge = deferredBridge(win, build, createEarlyBuffer(win));
    post('before');
    expect(bridge.host).toBe('browser');
    expect(builds).toBe(1);
    expect(seen).toEqual(['message before']);
    bridge.receive('now');
    expect(bridge.recording()).toBe('recorded');
    expect(bridge.stats()).toEqual({ pendingCommands: 0, outbox: 0, undelivered: 0 });
    await nextTask();
    expect(builds).toBe(1);
    expect(seen).toEqual(['message before', 'command now']);
  });

  it('destroyed before it was built, is built and destroyed: what it kept is handled first', () => {
    const bridge = deferredBridge(win, build, createEarlyBuffer(win));
    post('kept');
    bridge.destroy('reinstalled');
    expect(seen).toEqual(['message kept', 'destroyed reinstalled']);
  });

  it('says its version without building', () => {
    const building = vi.fn(build);
    const bridge = deferredBridge(win, building, createEarlyBuffer(win));
    expect(bridge.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(building).not.toHaveBeenCalled();
  });
});

describe('deferredBridge while its bridge is being built', () => {
  it('builds one bridge when a host answers `ready` at once, and hands it that command after the kept events', async () => {
    const host: { deferred?: Bridge } = {};
    let built = 0;
    // The real bridge says `ready` while it is built; a host that answers it synchronously (a
    // browser page's `chatbridge` listener) calls receive before build has returned.
    const saysReady = (env: Environment): Bridge => {
      built++;
      const bridge = build(env);
      (host.deferred as Bridge).receive('init, in answer to ready');
      return bridge;
    };
    const buffer = createEarlyBuffer(win, { events: [new MessageEvent('message', { data: 'earlier' })], commands: [] });
    const deferred = (host.deferred = deferredBridge(win, saysReady, buffer));
    await nextTask();
    expect(built).toBe(1);
    expect(seen).toEqual(['message earlier', 'command init, in answer to ready']);
    deferred.receive('later');
    expect(built).toBe(1);
    expect(seen.at(-1)).toBe('command later');
  });
});
