/**
 * The core (bridge/core.ts): the API client, the outbox and the command runner built from one
 * settings object. What each part reads from it: the runner answers through `answer`, the API
 * tells the redactor every auth token, uses the contact token it was given, and stops at the
 * requests `destroy` aborts.
 */
import { describe, expect, it } from 'vitest';
import { createCore, type CoreSettings } from '../../../bridge/core.js';
import { CONTRACT } from '../../../bridge/backend/profile.js';
import { CHATWOOT } from '../../../bridge/backend/chatwoot-profile.js';
import type { HttpRequest, HttpResponse } from '../../../bridge/environment.js';
import { normalizeOptions } from '../../../bridge/options.js';
import { createRedactor } from '../../../bridge/outbound/redact.js';
import type { Outcome } from '../../../bridge/protocol/messages.js';
import { createInMemoryEnvironment } from '../../../tools/testing/in-memory-environment.js';

const BASE = 'https://chat.example.test/api/v1';
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function build(fetch: (url: string, request: HttpRequest) => Promise<HttpResponse>, extra: Partial<CoreSettings> = {}) {
  const { env } = createInMemoryEnvironment({ fetch });
  const answers: Array<[string, Outcome]> = [];
  const redactor = createRedactor(env.now);
  const settings: CoreSettings = Object.assign(
    {},
    env,
    {
      resolved: normalizeOptions({ baseUrl: BASE, websiteToken: 'wt_core_1234' }, env.pageOrigin),
      profile: CONTRACT,
      redactor,
      emit: () => undefined,
      answer: (id: string, outcome: Outcome) => void answers.push([id, outcome]),
      inFlight: new Set<AbortController>(),
      page: 'page1',
      contactToken: undefined,
      restored: () => undefined,
      replaces: false,
    },
    extra,
  );
  return { core: createCore(settings), answers, redactor, settings };
}

const json = (status: number, body: unknown): HttpResponse =>
  ({ status, headers: { get: () => null }, text: async () => JSON.stringify(body) }) as unknown as HttpResponse;

describe('createCore', () => {
  it('answers a command through the settings `answer`, and tells the redactor the auth token the config gave', async () => {
    const { core, answers, redactor } = build(async () => json(200, { authToken: 'auth_core_token_1' }));
    core.runner.run({ id: 'c1', method: 'init' });
    await settle();
    await settle();
    expect(answers).toEqual([['c1', { ok: true, result: { config: {} } }]]);
    expect(redactor.scrub({ type: 'error', text: 'auth_core_token_1' } as never)).toEqual({
      type: 'error',
      text: '<redacted>',
    });
  });

  it('sends as the contact token it was built with, where the profile has the widget contact (Chatwoot)', async () => {
    const seen: Array<Record<string, string>> = [];
    const { core } = build(
      async (_url, request) => {
        seen.push(request.headers);
        return json(200, {});
      },
      { profile: CHATWOOT, contactToken: 'cw_contact_token_1' },
    );
    await core.api.getConversation({});
    expect(seen[0]).toMatchObject({ 'X-Auth-Token': 'cw_contact_token_1' });
  });

  it('puts every request under way in `inFlight`, for destroy to abort', async () => {
    const inFlight = new Set<AbortController>();
    const { core } = build(() => new Promise<HttpResponse>(() => undefined), { inFlight });
    void core.api.init().catch(() => undefined);
    await settle();
    expect(inFlight.size).toBe(1);
  });
});
