/**
 * The nginx configurations self-hosters copy, as the proxy tests start them (proxies.ts fills in
 * {{PORT}} and {{UPSTREAM}}), and the scenario of the refused photo both engines play.
 */
import { expect } from 'vitest';
import type { MessageStateMessage, OutboundMessage } from '../../bridge/protocol/messages.js';
import type { DeliveryPage } from './delivery-steps.js';
import type { RunningProxy } from './proxies.js';

export interface SnippetOptions {
  /** `always` on the CORS headers: nginx's own error answers carry them too. */
  always: boolean;
  /** `client_max_body_size`; nginx's default (1m) when left out. */
  bodyLimit?: string;
  /** More lines in the `http` block (a `limit_req_zone`). */
  http?: string;
  /** More lines in the API's `location /`. */
  location?: string;
  /** More `location` blocks. */
  server?: string;
}

/**
 * The CORS snippet most guides copy: the preflight answered by nginx, `Access-Control-Allow-Origin`
 * added to the answers, the app's own CORS headers hidden (one copy only). Without `always`, nginx
 * adds them to 2xx and 3xx answers only.
 */
export function corsSnippet({ always, bodyLimit, http = '', location = '', server = '' }: SnippetOptions): string {
  const a = always ? ' always' : '';
  return `${http}
server {
  listen 127.0.0.1:{{PORT}};
  ${bodyLimit ? `client_max_body_size ${bodyLimit};` : ''}
  location / {
    proxy_hide_header Access-Control-Allow-Origin;
    proxy_hide_header Access-Control-Allow-Methods;
    proxy_hide_header Access-Control-Allow-Headers;
    proxy_hide_header Access-Control-Expose-Headers;
    if ($request_method = OPTIONS) {
      add_header Access-Control-Allow-Origin *${a};
      add_header Access-Control-Allow-Methods "GET, POST, PATCH, DELETE, OPTIONS"${a};
      add_header Access-Control-Allow-Headers "Content-Type, Authorization"${a};
      add_header Access-Control-Max-Age 600${a};
      return 204;
    }
    add_header Access-Control-Allow-Origin *${a};
    add_header Access-Control-Expose-Headers Retry-After${a};
    ${location}
    proxy_pass http://{{UPSTREAM}};
  }
  ${server}
}
`;
}

/**
 * The contact's conversation, created from Node (no CORS there): behind the snippet without
 * `always`, the app's own 404 for a contact without one reaches the page without CORS headers
 * too, so these cases start as a returning user's page does, its conversation there.
 */
export async function ensureConversation(backendUrl: string, websiteToken: string): Promise<void> {
  const config = (await (await fetch(`${backendUrl}/config?website_token=${websiteToken}`)).json()) as {
    authToken: string;
  };
  const created = await fetch(`${backendUrl}/conversations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${config.authToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ contact: {} }),
  });
  expect(created.status).toBe(200);
}

/** host:port of a server's URL. */
export const hostOf = (url: string) => new URL(url).host;

export const MB = 1000 * 1000;

/** A photo of `bytes`, base64, as a host hands it to `sendMessage`. */
export const photo = (name: string, bytes: number) => ({
  name,
  type: 'image/jpeg',
  data: Buffer.alloc(bytes, 7).toString('base64'),
});

const statesOf = (messages: OutboundMessage[], messageId: string) =>
  messages.filter(
    (message): message is MessageStateMessage => message.type === 'message' && message.messageId === messageId,
  );

/**
 * Issue 32's first case, in any engine: behind nginx's default 1m limit with the CORS snippet
 * without `always`, a 2 MB photo and a text sent right after it. The photo fails as
 * `upload_refused` after 3 uploads (it was re-sent without end before), the text goes after it.
 */
export async function refusedPhotoThenText(
  tab: DeliveryPage,
  proxy: RunningProxy,
  stored: () => Promise<Array<{ content: string }>>,
): Promise<void> {
  await tab.send('sendMessage', { content: '', messageId: 'photo', attachments: [photo('beach.jpg', 2 * MB)] });
  await tab.send('sendMessage', { content: 'text after the photo', messageId: 'text' });
  const failed = (await tab.waitFor(
    { type: 'message', messageId: 'photo', state: 'failed' },
    { timeoutMs: 30_000 },
  )) as MessageStateMessage;
  expect(failed.attempt).toBe(3);
  expect(failed.error).toMatchObject({ type: 'error', code: 'upload_refused' });
  expect(failed.error?.message).toContain('client_max_body_size');
  await tab.waitFor({ type: 'message', messageId: 'text', state: 'sent' }, { timeoutMs: 10_000 });

  const messages = await tab.messages();
  // The first failure told as the network error the page saw; the outcome as the refusal it is.
  const errors = messages.flatMap((message) => (message.type === 'error' ? [message.code] : []));
  expect(errors[0]).toBe('network_error');
  expect(statesOf(messages, 'photo').filter((m) => m.state === 'sending' && !m.progress).length).toBe(3);
  // In order: the text went once the photo was decided.
  const order = messages.flatMap((m) =>
    m.type === 'message' && m.state !== 'queued' && m.state !== 'sending' ? [m.messageId] : [],
  );
  expect(order).toEqual(['photo', 'text']);
  const log = await proxy.requests();
  expect(log.filter((line) => line === 'POST /messages 413')).toHaveLength(3);
  expect((await stored()).map((message) => message.content)).toEqual(['text after the photo']);
}
