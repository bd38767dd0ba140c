/**
 * Browser pages: a `CustomEvent` on `window` whose `detail` is the message.
 * Checked where the bridge stops and the platform begins: what the native API is called with
 * (text or object), on which object, with which `this`; and that the shared stand-in
 * (tools/testing/stand-in-channels.ts) receives what that platform's native side would.
 */
import { describe, expect, it } from 'vitest';
import { browserAdapter } from '../../../../../bridge/outbound/adapters/browser.js';
import type { HostScope } from '../../../../../bridge/environment.js';
import { sendThrough, ERROR_MESSAGE, CHANNEL_NAMES, receivedByStandIn } from '../../../../helpers/native-channels.js';

describe('browser adapter', () => {
  /** A window stand-in that is a real EventTarget with the real CustomEvent class. */
  function browserScope() {
    const target = new EventTarget();
    const scope = Object.assign(target, { CustomEvent }) as unknown as HostScope;
    return { target, scope };
  }

  it("dispatches a CustomEvent 'chatbridge' on window whose detail is the message object", () => {
    const { target, scope } = browserScope();
    const received: Event[] = [];
    target.addEventListener('chatbridge', (event) => received.push(event));

    sendThrough(browserAdapter, scope, ERROR_MESSAGE);

    expect(received).toHaveLength(1);
    const event = received[0] as CustomEvent;
    expect(event).toBeInstanceOf(CustomEvent);
    expect(event.type).toBe('chatbridge');
    expect(event.detail).toEqual(ERROR_MESSAGE);
  });

  it('dispatches under a custom event name and not under the default one', () => {
    const { target, scope } = browserScope();
    const custom: unknown[] = [];
    const defaults: unknown[] = [];
    target.addEventListener('acme-chat', (event) => custom.push((event as CustomEvent).detail));
    target.addEventListener('chatbridge', (event) => defaults.push((event as CustomEvent).detail));

    sendThrough(browserAdapter, scope, { type: 'ready' }, { ...CHANNEL_NAMES, browserEvent: 'acme-chat' });

    expect(custom).toEqual([{ type: 'ready' }]);
    expect(defaults).toEqual([]);
  });

  it('calls dispatchEvent with window as its receiver', () => {
    const receivers: unknown[] = [];
    const scope: HostScope = {
      CustomEvent,
      dispatchEvent(this: unknown) {
        receivers.push(this);
        return true;
      },
    };
    sendThrough(browserAdapter, scope, { type: 'ready' });
    expect(receivers).toEqual([scope]);
  });

  it('finds no channel without dispatchEvent or CustomEvent', () => {
    expect(browserAdapter.find({}, CHANNEL_NAMES)).toBeUndefined();
    expect(browserAdapter.find({ CustomEvent }, CHANNEL_NAMES)).toBeUndefined();
    expect(browserAdapter.find({ dispatchEvent: () => true }, CHANNEL_NAMES)).toBeUndefined();
  });
});

describe('browser adapter and the shared stand-in', () => {
  it("hands the page a copy of the message object as the event's detail, under the names configured", () => {
    const names = { ...CHANNEL_NAMES, browserEvent: 'acme-chat' };
    expect(receivedByStandIn('browser', browserAdapter, names)).toEqual([ERROR_MESSAGE]);
  });
});
