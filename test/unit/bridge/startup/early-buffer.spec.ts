// @vitest-environment happy-dom
/**
 * The one buffer for what comes before a bridge is ready (bridge/startup/early-buffer.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createEarlyBuffer,
  EARLY_COMMAND_LIMIT,
  withinLimits,
  type Admit,
  type EarlyBuffer,
} from '../../../../bridge/startup/early-buffer.js';

const post = (data: unknown, target: EventTarget = window, origin = '') =>
  target.dispatchEvent(new MessageEvent('message', { data, origin, bubbles: true }));
const dataOf = (events: Event[]) =>
  events.map((event) => (event.type === 'message' ? (event as MessageEvent).data : event.type));

const buffers: EarlyBuffer[] = [];
const buffer = (earlier?: Parameters<typeof createEarlyBuffer>[1], admit?: Admit) => {
  const created = createEarlyBuffer(window, earlier, admit);
  buffers.push(created);
  return created;
};
afterEach(() => buffers.splice(0).forEach((created) => created.take()));

describe('createEarlyBuffer', () => {
  it('keeps nothing before keep(), then the window events in order, each once, until take()', () => {
    const kept = buffer();
    post('before');
    kept.keep();
    post('one');
    window.dispatchEvent(new Event('offline'));
    post('two', window.document); // bubbles: passes the document, then the window
    window.dispatchEvent(new Event('online'));
    const taken = kept.take();
    post('after');

    expect(dataOf(taken.events)).toEqual(['one', 'offline', 'two', 'online']);
    expect(taken).toMatchObject({ commands: [], dropped: 0 });
    expect(kept.take()).toEqual({ events: [], commands: [], dropped: 0 });
  });

  it('hands over what another buffer kept first, then its own', () => {
    const earlierEvent = new MessageEvent('message', { data: 'earlier' });
    const kept = buffer({ events: [earlierEvent], commands: ['c0'] });
    kept.keep();
    post('mine');
    kept.receive('c1');
    const taken = kept.take();
    expect(dataOf(taken.events)).toEqual(['earlier', 'mine']);
    expect(taken.commands).toEqual(['c0', 'c1']);
  });

  it(`keeps at most ${EARLY_COMMAND_LIMIT} commands and counts the rest dropped`, () => {
    const kept = buffer();
    for (let i = 0; i < EARLY_COMMAND_LIMIT + 3; i++) kept.receive(i);
    expect(kept.commands).toHaveLength(EARLY_COMMAND_LIMIT);
    const taken = kept.take();
    expect(taken.commands).toHaveLength(EARLY_COMMAND_LIMIT);
    expect(taken.commands[EARLY_COMMAND_LIMIT - 1]).toBe(EARLY_COMMAND_LIMIT - 1);
    expect(taken.dropped).toBe(3);
    expect(kept.commands).toEqual([]);
  });

  it('keeps what admit lets in, counts what it drops, and ignores what is none of its business', () => {
    const kept = buffer(undefined, (event) => {
      const data = (event as MessageEvent).data;
      return data === 'keep' ? true : data === 'drop' ? false : undefined;
    });
    kept.keep();
    ['keep', 'drop', 'other', 'drop', 'keep'].forEach((data) => post(data));
    const taken = kept.take();
    expect(dataOf(taken.events)).toEqual(['keep', 'keep']);
    expect(taken.dropped).toBe(2);
  });

  it('starts counting afresh after take, and keeps again on the next keep()', () => {
    const kept = buffer(undefined, () => false);
    kept.keep();
    post('x');
    expect(kept.take().dropped).toBe(1);
    kept.keep();
    post('y');
    post('z');
    expect(kept.take().dropped).toBe(2);
  });
});

describe('withinLimits', () => {
  const all = () => true;

  it('admits events up to the event limit, then drops', () => {
    const admit = withinLimits(2, Infinity, all);
    const verdicts = ['a', 'b', 'c'].map((data) => admit(new MessageEvent('message', { data })));
    expect(verdicts).toEqual([true, true, false]);
  });

  it('admits message data up to the character limit, text by length and anything else as JSON', () => {
    const admit = withinLimits(100, 10, all);
    expect(admit(new MessageEvent('message', { data: '12345' }))).toBe(true); // 5
    expect(admit(new MessageEvent('message', { data: { a: 1 } }))).toBe(false); // {"a":1} is 7: 12 > 10
    expect(admit(new MessageEvent('message', { data: [1] }))).toBe(true); // [1] is 3: 8
    expect(admit(new Event('online'))).toBe(true); // no data: 0
    expect(admit(new MessageEvent('message', { data: '123' }))).toBe(false); // 11 > 10
    expect(admit(new MessageEvent('message', { data: '12' }))).toBe(true); // exactly 10
  });

  it('leaves alone, uncounted, what relevant refuses: it uses up no limit', () => {
    const admit = withinLimits(1, Infinity, (event) => (event as MessageEvent).data !== 'foreign');
    expect(admit(new MessageEvent('message', { data: 'foreign' }))).toBeUndefined();
    expect(admit(new MessageEvent('message', { data: 'foreign' }))).toBeUndefined();
    expect(admit(new MessageEvent('message', { data: 'ours' }))).toBe(true);
    expect(admit(new MessageEvent('message', { data: 'ours' }))).toBe(false);
  });

  it('counts data JSON cannot write as nothing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const admit = withinLimits(10, 0, all);
    expect(admit(new MessageEvent('message', { data: cyclic }))).toBe(true);
    expect(admit(new MessageEvent('message', { data: 'x' }))).toBe(false);
  });
});
