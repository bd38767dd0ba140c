/**
 * The inbound edge: origin and namespace checks, the size cap, JSON parsing and schema
 * validation. Everything that arrives leaves here as one of four verdicts, so the dispatcher
 * only ever sees typed, validated messages.
 *
 * What counts as ours ("namespaced"):
 * - a string `'<widgetPrefix>:' + JSON` (the widget's protocol);
 * - a string `'chat-bridge:' + JSON`, or a host command envelope `{id, method, params?}` with a
 *   string id and method, as an object or JSON text (host commands posted as `message` events;
 *   JSON-RPC traffic, which has the same keys, is told apart by its `jsonrpc` member);
 * - anything handed to `ChatBridge.receive`, which exists for host commands only.
 * Everything else (dev tools, video players, other SDKs) is ignored without a word.
 */
import { errorEvent, type ErrorEvent } from '../protocol/errors.js';
import type { ResolvedOptions } from '../options.js';
import { isEnvelopeLike, refuseOversized } from './oversize.js';
import { isObject, parseJson, toJsonText } from '../protocol/safe-json.js';
import { MAX_DEPTH } from '../protocol/limits.js';
import { fromAllowedOrigin } from './origin.js';
import { describeIssues } from './describe-issues.js';
import { HostCommandSchema, idString, WidgetMessageSchema, type HostCommand } from '../protocol/schemas.js';
import type { InboundMessage } from '../environment.js';

const COMMAND_PREFIX = 'chat-bridge:';

export type Verdict =
  | { kind: 'ignored' }
  /** `id`: the command's id when it could be read, so the host's call is answered, not left waiting. */
  | { kind: 'invalid'; error: ErrorEvent; id?: string }
  | { kind: 'command'; command: HostCommand }
  /**
   * `data` without credential fields (protocol/safe-json.ts); `secrets`: their string values, for the
   * redactor; `conversationToken`: the widget's conversation token, when this event carries one.
   */
  | {
      kind: 'widget';
      event: string;
      data: Record<string, unknown>;
      secrets: string[];
      conversationToken?: string | false | undefined;
    };

const IGNORED: Verdict = { kind: 'ignored' };

/**
 * The widget protocol carries messages both ways on one prefix. A host (or its SDK) sends the
 * widget commands with `window.postMessage('chatwoot-widget:' + JSON)` into the widget's page,
 * so they arrive on the same window, from the same origin, as the widget's own events (which
 * Chatwoot's widget posts to `window.parent`: the page itself when it is not framed). The names
 * tell them apart: Chatwoot's widget names its own events in camelCase (`loaded`, `toggleBubble`,
 * `setAuthCookie`, `onMessage`) and the commands it takes in kebab-case (`set-user`,
 * `set-locale`, `set-custom-attributes`, `set-color-scheme`, `toggle-open`, `config-set`; see
 * app/javascript/widget/App.vue). An event name with a "-" is therefore a command to the
 * widget: not news from it, and never echoed to the host.
 */
const toWidget = (event: string) => event.includes('-');

type InboundOptions = Pick<
  ResolvedOptions,
  'allowedOrigins' | 'widgetPrefix' | 'maxMessageLength' | 'maxCommandLength' | 'maxFileSize'
>;

/** A `message` event from the window or document. */
export function classifyPosted(message: InboundMessage, options: InboundOptions): Verdict {
  if (!fromAllowedOrigin(message.origin, options.allowedOrigins)) return IGNORED;

  const { data } = message;
  if (typeof data === 'string') {
    if (data.startsWith(options.widgetPrefix + ':')) return parseWidget(data, options);
    if (data.startsWith(COMMAND_PREFIX)) return parseCommandText(data.slice(COMMAND_PREFIX.length), options);
    // Foreign JSON is common (webpack, dev tools); only an envelope that parses is ours.
    return data.charCodeAt(0) === 123 /* "{" */ && data.includes('"method"')
      ? parseCommandText(data, options, true)
      : IGNORED;
  }
  return isEnvelopeLike(data) ? parseCommandObject(data, options) : IGNORED;
}

/** Data the native host handed to `ChatBridge.receive`: always meant for the bridge. */
export function classifyHostData(data: unknown, options: InboundOptions): Verdict {
  if (typeof data === 'string') {
    return parseCommandText(data.startsWith(COMMAND_PREFIX) ? data.slice(COMMAND_PREFIX.length) : data, options);
  }
  if (typeof data === 'object' && data !== null) return parseCommandObject(data, options);
  return invalid(`[host command] must be JSON or an object, not ${data === null ? 'null' : typeof data}`);
}

function parseWidget(data: string, options: InboundOptions): Verdict {
  if (data.length > options.maxMessageLength) return tooLong('widget message', data.length, options.maxMessageLength);
  const secrets: Array<[string, string]> = [];
  const parsed = parseJson(data.slice(options.widgetPrefix.length + 1), secrets);
  if (!parsed.ok) return invalid(`[widget message] invalid JSON after "${options.widgetPrefix}:"`);
  if (parsed.deep) return tooDeep('widget message');
  // The widget's close button posts `{"type":"close-widget"}` (a type, no event): news from it,
  // which Chatwoot's own SDKs read, so it becomes the widget event "close-widget".
  if (isObject(parsed.value) && parsed.value['type'] === 'close-widget')
    return { kind: 'widget', event: 'close-widget', data: {}, secrets: [] };
  const result = WidgetMessageSchema.safeParse(parsed.value);
  if (!result.success) return invalid(`[widget message] invalid: ${describeIssues(result.error)}`);
  const event = result.data.event;
  if (toWidget(event)) return IGNORED;
  // The schema's output is a fresh object: the event's name comes out of it, the rest is the data.
  const fields: Record<string, unknown> = result.data;
  delete fields['event'];
  return {
    kind: 'widget',
    event,
    data: fields,
    secrets: secrets.map((secret) => secret[1]),
    // Chatwoot's conversation token (its cw_conversation cookie): `loaded` carries it as config.authToken.
    conversationToken: event === 'loaded' && (secrets.find((secret) => secret[0] === 'authToken') || [])[1],
  };
}

/** `foreign`: text that may be someone else's JSON, ours only if it parses to an envelope. */
function parseCommandText(text: string, options: InboundOptions, foreign?: true): Verdict {
  if (text.length > options.maxCommandLength) return oversizedCommand(text, options);
  const parsed = parseJson(text);
  if (foreign) return parsed.ok && isEnvelopeLike(parsed.value) ? validateCommand(parsed) : IGNORED;
  return parsed.ok ? validateCommand(parsed) : invalid('[host command] invalid JSON');
}

function parseCommandObject(data: object, options: InboundOptions): Verdict {
  // Serializing first gives objects the same size cap and prototype-key stripping as text.
  const text = toJsonText(data);
  if (text === undefined) return withId(invalid('[host command] not JSON-serializable'), data);
  return parseCommandText(text, options);
}

function validateCommand({ value, deep }: { value: unknown; deep: boolean }): Verdict {
  // Answered on its id like any refusal: the host's call must not wait for a command nobody runs.
  if (deep) return withId(tooDeep('host command'), value);
  const result = HostCommandSchema.safeParse(value);
  if (!result.success) {
    return withId(invalid(`[host command] invalid: ${describeIssues(result.error)}`), value);
  }
  return { kind: 'command', command: result.data };
}

/**
 * The refusal answered on the command's id when it can be read, so the host's call is not left
 * waiting; only an id the schema would have taken, so no oversized id is echoed back.
 */
function withId(verdict: Verdict, value: unknown): Verdict {
  try {
    const id = (value as { id?: unknown }).id;
    if (idString.safeParse(id).success) (verdict as { id?: string }).id = id as string;
  } catch {
    // Null (JSON text "null"), or a hostile getter: the refusal goes out without an id.
  }
  return verdict;
}

/** Refused unparsed, yet answered on its id when that can be read (inbound/oversize.ts). */
function oversizedCommand(text: string, options: InboundOptions): Verdict {
  const refused = tooLong('host command', text.length, options.maxCommandLength);
  // Its id only where it could be read: `id` is absent otherwise, not undefined.
  return Object.assign(refused, refuseOversized(text, refused.error, options.maxFileSize));
}

function tooLong(what: string, length: number, cap: number): Extract<Verdict, { kind: 'invalid' }> {
  return invalid(`[${what}] ${length} characters, over the ${cap} cap`);
}

function tooDeep(what: string): Extract<Verdict, { kind: 'invalid' }> {
  return invalid(`[${what}] nested over ${MAX_DEPTH} levels deep`);
}

function invalid(message: string): Extract<Verdict, { kind: 'invalid' }> {
  return { kind: 'invalid', error: errorEvent('parse_error', message) };
}
