/**
 * Every error code a browser can produce, as cases any engine's harness can run: the trigger, the
 * backend fault, and what the error event must look like. Run in Chromium for all five hosts
 * (test/browser/error-codes.spec.ts) and in WebKit for the three WebKit hosts (test/webkit/).
 */
import { expect } from 'vitest';
import type { ErrorCode, ErrorEvent } from '../../bridge/protocol/errors.js';
import type { ResponseMessage } from '../../bridge/protocol/messages.js';
import type { HostName } from '../../bridge/protocol/bridge-options.js';
import { STRING_HOSTS, WEBSITE_TOKEN, decodePayloads } from './browser-harness.js';
import type { ScenarioPage } from './scenario-page.js';

/** A host command (answered with a response), a message posted in the page, or raw text handed to ChatBridge.receive. */
type Trigger = { method: string; params?: Record<string, unknown> } | { post: string } | { receive: string };

export interface Case {
  code: ErrorCode;
  /** How it comes about, for the test name. */
  via: string;
  fault?: string;
  trigger: Trigger;
  /** Bridge options for this case only (installed over the page's settings, then reverted). */
  options?: (backendUrl: string) => Record<string, unknown>;
  /** Refused inside the bridge: the backend must see no request at all. */
  local?: boolean;
  status?: number;
  errors?: Record<string, string[]>;
  message?: RegExp;
}

const SMALL = 'aGVsbG8='; // "hello"
const WIDGET = 'chatwoot-widget:';

export const CASES: Case[] = [
  {
    code: 'auth_failed',
    via: 'a rotated website token',
    fault: 'rotated-website-token',
    trigger: { method: 'init' },
    status: 401,
    message: /^\[GET \/config\] 401: Invalid website token/,
  },
  {
    code: 'config_error',
    via: 'an empty /config body',
    fault: 'config-empty',
    trigger: { method: 'init' },
    status: 200,
    message: /^\[GET \/config\] 200: empty body/,
  },
  {
    code: 'network_error',
    via: 'a backend without CORS headers',
    fault: 'no-cors',
    trigger: { method: 'init' },
    message: /^\[GET \/config\] network error/,
  },
  {
    code: 'server_error',
    via: 'a 500',
    fault: 'server-error',
    trigger: { method: 'init' },
    status: 500,
    message: /^\[GET \/config\] 500/,
  },
  {
    code: 'rate_limited',
    via: 'a 429 after the one retry allowed',
    fault: 'rate-limited',
    trigger: { method: 'init' },
    status: 429,
    message: /^\[GET \/config\] 429: .*gave up after 1 retry/,
  },
  {
    code: 'validation_error',
    via: "the backend's 422",
    fault: 'validation-422',
    trigger: { method: 'createConversation', params: { email: 'ada@example.com' } },
    status: 422,
    errors: { email: ['is not a valid e-mail address'] },
    message: /^\[POST \/conversations\] 422/,
  },
  {
    code: 'validation_error',
    via: 'an invalid e-mail refused locally',
    trigger: { method: 'createConversation', params: { email: 'not-an-email' } },
    local: true,
    status: 422,
    errors: { email: ['is not a valid e-mail address'] },
  },
  {
    code: 'file_too_large',
    via: 'a 6 MB attachment refused locally',
    trigger: {
      method: 'sendMessage',
      params: { content: 'big', attachments: [{ name: 'big.mp4', type: 'video/mp4', size: 6 * 1024 * 1024 }] },
    },
    local: true,
    status: 413,
    message: /^\[POST \/messages\] 413: big\.mp4 is 6291456 bytes/,
  },
  {
    code: 'file_too_large',
    via: "the backend's 413",
    fault: 'payload-too-large',
    trigger: {
      method: 'sendMessage',
      params: { content: 'x', attachments: [{ name: 'a.png', type: 'image/png', data: SMALL }] },
    },
    status: 413,
    message: /^\[POST \/messages\] 413/,
  },
  {
    code: 'too_many_files',
    via: 'six attachments',
    trigger: {
      method: 'sendMessage',
      params: {
        content: 'six',
        attachments: Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.txt`, type: 'text/plain', data: SMALL })),
      },
    },
    local: true,
    status: 400,
  },
  {
    code: 'unsupported_file_type',
    via: 'an executable attachment',
    trigger: {
      method: 'sendMessage',
      params: { content: 'exe', attachments: [{ name: 'tool.exe', type: 'application/x-msdownload', data: SMALL }] },
    },
    local: true,
    status: 400,
  },
  {
    code: 'empty_message',
    via: 'blank content',
    trigger: { method: 'sendMessage', params: { content: '   ' } },
    local: true,
    status: 400,
  },
  {
    code: 'parse_error',
    via: 'a malformed widget message posted from the page',
    trigger: { post: `${WIDGET}{"event":` },
    local: true,
    message: /^\[widget message\] invalid JSON/,
  },
  {
    code: 'parse_error',
    via: 'host command text that is not JSON',
    trigger: { receive: '{"id":"x","method":' },
    local: true,
    message: /^\[host command\]/,
  },
  {
    code: 'widget_error',
    via: "the widget's error event",
    trigger: { post: WIDGET + JSON.stringify({ event: 'error', message: 'inbox is not set up' }) },
    local: true,
    message: /inbox is not set up/,
  },
  {
    code: 'unknown_method',
    via: 'a method the bridge lacks',
    trigger: { method: 'deleteEverything' },
    local: true,
    message: /unknown method "deleteEverything"/,
  },
  {
    code: 'not_found',
    via: 'a baseUrl whose path the backend does not serve',
    trigger: { method: 'init' },
    options: (backendUrl) => ({ baseUrl: `${backendUrl}/no-such-api` }),
    status: 404,
    message: /^\[GET \/config\] 404/,
  },
];

export interface Produced {
  /** The error event's payload exactly as the channel received it. */
  raw: unknown;
  event: ErrorEvent;
  errorEvents: number;
  response: ResponseMessage | undefined;
}

/** Brings the case about in one page and collects what its channel received. */
export async function produce(tab: ScenarioPage, testCase: Case, backendUrl: string): Promise<Produced> {
  if (testCase.options) {
    const before = await tab.mark();
    await tab.install(testCase.options(backendUrl));
    await tab.waitFor({ type: 'ready' }, { since: before });
  }
  try {
    const since = await tab.mark();
    const { trigger } = testCase;
    let response: ResponseMessage | undefined;
    if ('post' in trigger) {
      // From the page's own origin, as the widget's iframe would post to its parent.
      await tab.postWindowMessage(trigger.post);
    } else if ('receive' in trigger) {
      await tab.receiveText(trigger.receive);
    } else {
      response = await tab.call(trigger.method, trigger.params);
    }
    await tab.waitFor({ type: 'error', code: testCase.code }, { since });
    // A payload may carry several messages (what one task delivered): the error events among them.
    const errors = (await tab.payloads())
      .flatMap((payload) => decodePayloads(tab.host, payload).map((message) => ({ payload, message })))
      .slice(since)
      .filter(({ message }) => message.type === 'error');
    const raw = errors[0]?.payload;
    return { raw, event: errors[0]?.message as ErrorEvent, errorEvents: errors.length, response };
  } finally {
    if (testCase.options) await tab.install();
  }
}

/** What every host must have received for the case: one error event, in its native form, no secret in it. */
export function expectProduced(produced: Produced, host: HostName, testCase: Case, authTokens: Iterable<string>): void {
  const { raw, event, errorEvents, response } = produced;
  const where = `${host}: ${JSON.stringify(event)}`;
  expect(typeof raw, where).toBe(STRING_HOSTS.has(host) ? 'string' : 'object');
  expect(errorEvents, where).toBe(1);
  expect(event.type, where).toBe('error');
  expect(event.code, where).toBe(testCase.code);
  expect(event.message, where).toMatch(/^\[.+\] ./);
  if (testCase.message) expect(event.message, where).toMatch(testCase.message);
  expect(event.status, where).toBe(testCase.status);
  expect(event.errors, where).toEqual(testCase.errors);
  const text = JSON.stringify(event);
  for (const secret of [WEBSITE_TOKEN, ...authTokens]) expect(text, where).not.toContain(secret);
  expect(text, where).not.toMatch(/bearer/i);
  // A failed command answers its id with the same event it emits.
  if (response !== undefined)
    expect(response, where).toEqual({ type: 'response', id: response.id, ok: false, error: event });
}
