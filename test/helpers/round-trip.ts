/**
 * A page's first round trip, the same in every engine (bridge-e2e in Chromium, the WebKit
 * scenarios for each WebKit host): init, getConversation (404, then created) and a sendMessage
 * with one small attachment, each answered as the reference backend answers. What the backend saw
 * of it is page-servers.ts's `expectPreflightedRoundTrip`.
 */
import { expect } from 'vitest';
import type { ScenarioPage } from './scenario-page.js';

const HELLO = 'hello, attachment';

/** Runs the three commands on `tab` and checks each answer; `content` is the message's text. */
export async function runRoundTrip(tab: ScenarioPage, content: string): Promise<void> {
  const init = await tab.call('init');
  expect(init).toMatchObject({ ok: true, result: { config: { widget: { name: 'Reference inbox' } } } });
  // The config's authToken stays in the bridge.
  expect(JSON.stringify(init)).not.toContain('authToken');

  const conversation = await tab.call('getConversation', { name: 'Ada', email: 'ada@example.com' });
  expect(conversation).toMatchObject({
    ok: true,
    result: { status: 'open', contact: { name: 'Ada', email: 'ada@example.com' }, messages: [] },
  });

  const sent = await tab.call('sendMessage', {
    content,
    attachments: [{ name: 'hello.txt', type: 'text/plain', data: Buffer.from(HELLO).toString('base64') }],
  });
  expect(sent).toMatchObject({
    ok: true,
    result: { content, attachments: [{ name: 'hello.txt', type: 'text/plain', size: HELLO.length }] },
  });
}
