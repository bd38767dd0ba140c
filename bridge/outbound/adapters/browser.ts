/**
 * Browser pages (the demo, or a page embedding the bridge directly): a `CustomEvent` on
 * `window` whose `detail` is the message object, one event per message, at once (a listener in
 * the page is no crossing into an app, so there is nothing to save by batching).
 */
import type { HostAdapter } from '../channel.js';

export const browserAdapter: HostAdapter = {
  encode: (message) => message,
  oneByOne: true,
  find(scope, names) {
    const dispatchEvent = scope['dispatchEvent'];
    const CustomEventClass = scope['CustomEvent'] as (new (type: string, init: CustomEventInit) => Event) | undefined;
    return typeof dispatchEvent === 'function' && typeof CustomEventClass === 'function'
      ? (payload) => void dispatchEvent.call(scope, new CustomEventClass(names.browserEvent, { detail: payload }))
      : undefined;
  },
};
