/**
 * Chatwoot's widget API as a backend profile (profile.ts), read from Chatwoot's source
 * (chatwoot/chatwoot, develop; docs/chatwoot.md lists what differs from the contract):
 * - paths: config/routes.rb, `namespace :widget` under `api/v1`; the contact's latest
 *   conversation is implied, no id in a path (app/controllers/api/v1/widget/base_controller.rb
 *   `conversation`), and `POST …/messages` makes one when there is none (messages_controller.rb
 *   `set_conversation`);
 * - credentials: `website_token` a parameter of every call, the contact's token the `X-Auth-Token`
 *   header (app/controllers/concerns/website_token_helper.rb; app/javascript/widget/api/endPoints.js),
 *   never `Authorization`;
 * - a token the server no longer knows is `404 {"error":"Resource could not be found"}`
 *   (`set_contact` raises RecordNotFound; app/controllers/concerns/request_exception_handler.rb),
 *   never 401; a 401 is final (`{"error": "Account is suspended"}`, an HMAC refused);
 * - validation is `422 {"message", "attributes"}` (request_exception_handler.rb
 *   `render_record_invalid`), a missing parameter `422 {"error"}`; more messages a minute in one
 *   conversation than allowed is the 422 "Too many messages" (app/models/message.rb
 *   `prevent_message_flooding`);
 * - attachments are multipart `message[attachments][]` (endPoints.js `sendAttachment`;
 *   messages_controller.rb `build_attachment`);
 * - `echo_id` is taken (base_controller.rb `message_params`) but not stored (app/models/message.rb:
 *   an attribute, no column), and the messages list does not show it
 *   (app/views/api/v1/widget/models/_message.json.jbuilder): a repeat is found by `findSent`.
 */
import { isObject, parseJson } from '../protocol/safe-json.js';
import type { FieldErrors } from '../protocol/errors.js';
import { CHATWOOT_TYPES } from '../protocol/service-rules.js';
import type { Profile } from './profile.js';
import { usableToken } from './backend-bodies.js';
import { httpError } from './http-errors.js';
import type { OutboxRecord } from './outbox-record.js';

const WIDGET = '/api/v1/widget';
const CONFIG = { method: 'POST', path: `${WIDGET}/config` } as const;

/**
 * `created_at` is whole seconds (`.to_i` in _message.json.jbuilder), and the server's clock is
 * known only to the second (the `Date` header): a message made up to this long before the
 * attempt began still counts as its.
 */
const SLACK_MS = 2_000;

/**
 * Chatwoot's words, with the field names of `attributes` as `errors` (`base` names none; an empty
 * `errors` is none, as fieldErrorsOf reads it).
 */
function readable(body: unknown): { message?: unknown; errors?: FieldErrors } {
  if (!isObject(body)) return {};
  const message = body['message'] || body['error'];
  const attributes = body['attributes'];
  const errors: FieldErrors = {};
  if (typeof message === 'string' && Array.isArray(attributes))
    for (const field of attributes) if (typeof field === 'string' && field !== 'base') errors[field] = [message];
  return { message, errors };
}

/** The echo_id a message shows, where a Chatwoot (or a proxy in front of it) gives one back. */
const echoOf = (message: Record<string, unknown>) => {
  const attributes = message['content_attributes'];
  return message['echo_id'] || (isObject(attributes) ? attributes['echo_id'] : undefined);
};

/**
 * The visitor's message among the conversation's latest (`GET …/messages`, oldest first) that is
 * `record`'s: its echo_id where the list gives one; else the first incoming one, not yet settled,
 * with the same content and number of attachments, made since the lost attempt began. Two such
 * messages sent within that window cannot be told apart (docs/delivery.md).
 */
function findSent(list: unknown, record: OutboxRecord, since: number, claimed: Set<unknown>): unknown {
  if (!Array.isArray(list)) return undefined;
  return list.find((message) => {
    if (!isObject(message) || claimed.has(message['id'])) return false;
    const echo = echoOf(message);
    if (echo) return echo === record.messageId;
    const attachments = message['attachments'];
    return (
      // message_type_before_type_cast: 0 is incoming (app/models/message.rb `enum message_type`).
      (message['message_type'] === 0 || message['message_type'] === 'incoming') &&
      (message['content'] || '') === (record.content || '') &&
      (Array.isArray(attachments) ? attachments.length : 0) === (record.files || []).length &&
      (message['created_at'] as number) * 1000 >= since - SLACK_MS
    );
  });
}

export const CHATWOOT: Profile = {
  config: CONFIG,
  conversationsPath: `${WIDGET}/conversations`,
  messagesPath: `${WIDGET}/messages`,
  // contacts_controller.rb `update`: ContactIdentifyAction with the top-level identifier, email
  // and name (permitted_params), as the widget SDK's setUser; conversations_controller.rb `create`
  // takes contact fields too, but only with a first message, and not the identifier.
  contactPath: `${WIDGET}/contact`,
  tokenName: 'auth_token',
  tokenEverywhere: true,
  stale: 404,
  sign: (headers, token) => void (headers['X-Auth-Token'] = token),
  session({ text }) {
    // app/views/api/v1/widget/configs/create.json.jbuilder: `auth_token` is the contact's token
    // (at the top in develop, inside website_channel_config in some versions: the first found);
    // contact.pubsub_token (ActionCable's) is a credential too. Every field named as one is taken
    // out of what the host gets.
    const secrets: Array<[string, string]> = [];
    const parsed = parseJson(text, secrets);
    return {
      token: usableToken((secrets.find(([name]) => name === 'auth_token') || [])[1]),
      config: parsed.ok && isObject(parsed.value) ? parsed.value : {},
      secrets: secrets.map((secret) => secret[1]),
    };
  },
  fileField: 'message[attachments][]',
  fileTypes: CHATWOOT_TYPES,
  // rack-attack's 429 has no Retry-After and a one-minute window (config/initializers/rack_attack.rb).
  rateLimitPasses: true,
  error(request, response) {
    const { status } = response;
    const body = readable(response.body);
    // A 404 reaches here from a token-scoped call only after the token was renewed and the call
    // made again (api.ts): the server does not know the contact. On the config call, the inbox.
    // "Too many messages" is counted over the last minute (message.rb `prevent_message_flooding`):
    // it passes later, as any rate limit.
    const code =
      status === 404 && request.path !== CONFIG.path
        ? 'auth_failed'
        : status === 422 && /^Too many messages/.test(String(body.message))
          ? 'rate_limited'
          : undefined;
    return httpError(request, { ...response, body }, code);
  },
  widgetContact: true,
  findSent,
};
