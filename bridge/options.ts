/**
 * Bridge options: one defaults object and one `normalizeOptions` that rejects bad input early,
 * naming the option, so a misconfigured host fails at install and not on the first message.
 */
import type { RetryPolicy } from './backend/retry-timing.js';
import { MAX_FILES } from './protocol/service-rules.js';

export const HOST_NAMES = ['react-native', 'android', 'ios', 'flutter', 'browser'] as const;
export type HostName = (typeof HOST_NAMES)[number];

/** Names under which each platform's native channel is found on `window`. */
export interface ChannelNames {
  /** `window.<name>.postMessage(string)`, the Android `@JavascriptInterface` object. @default "ChatBridgeAndroid" */
  androidChannel: string;
  /** `window.webkit.messageHandlers.<name>`, the iOS `WKScriptMessageHandler`. @default "chatBridge" */
  iosHandler: string;
  /** `window.<name>.postMessage(string)`, the webview_flutter `JavaScriptChannel`. @default "ChatBridgeFlutter" */
  flutterChannel: string;
  /** The `CustomEvent` type dispatched on `window` for browser pages. @default "chatbridge" */
  browserEvent: string;
}

export interface BridgeOptions extends Partial<ChannelNames> {
  /** Absolute URL of the API root, e.g. `https://chat.example.com/api/v1`. Required. */
  baseUrl: string;
  /**
   * The widget inbox's website token, at least 6 characters (a shorter one is refused: it could
   * not be scrubbed from text safely). Without it, commands fail with `auth_failed` and send nothing.
   */
  websiteToken?: string;
  /** The native platform. @default detected from the globals present, else "browser" */
  host?: HostName;
  /** Origins whose posted messages are accepted. @default [origin of baseUrl, the page's origin] */
  allowedOrigins?: string[] | '*';
  /** Largest attachment accepted, in bytes. @default 5242880 (5 MiB, the widget's limit) */
  maxFileSize?: number;
  /** Prefix of the widget's string protocol, `'<prefix>:' + JSON`. @default "chatwoot-widget" */
  widgetPrefix?: string;
  /** Widget and other posted messages longer than this many characters are refused. @default 1048576 */
  maxMessageLength?: number;
  /** Each HTTP request is aborted after this many ms and reported as `network_error`. @default 15000 */
  requestTimeout?: number;
  /** A host command that has not finished after this many ms is answered with `network_error`. @default 50000 */
  commandTimeout?: number;
  /** Retries of 429 answers. @default {limit: 4, baseDelay: 1000, maxDelay: 10000} */
  retry?: Partial<RetryPolicy>;
  /** Keep the traffic in the fixture format, for `ChatBridge.recording()`. @default false */
  record?: boolean;
  /**
   * Send the widget's conversation token (its `loaded` event's `config.authToken`) to the host
   * in one `{type: "conversationToken", token}` event, for hosts that resume the conversation
   * with it (`cw_conversation` in the widget URL). Without it the token never leaves. @default false
   */
  forwardConversationToken?: boolean;
}

export interface ResolvedOptions extends ChannelNames {
  baseUrl: string;
  apiOrigin: string;
  websiteToken: string | undefined;
  host: HostName | undefined;
  allowedOrigins: ReadonlySet<string> | '*';
  maxFileSize: number;
  widgetPrefix: string;
  maxMessageLength: number;
  /** Derived: admits 5 attachments of `maxFileSize` in base64, wrapped or not, plus the envelope. */
  maxCommandLength: number;
  requestTimeout: number;
  commandTimeout: number;
  retry: RetryPolicy;
  record: boolean;
  forwardConversationToken: boolean;
}

/**
 * Shorter values are not tokens: the options refuse such a website token, a config answer with
 * such an authToken is a `config_error`, and widget fields with such values are dropped without
 * being learned (scrubbing a 3-letter "token" would blank ordinary words).
 */
export const MIN_TOKEN_LENGTH = 6;
export const DEFAULTS = {
  maxFileSize: 5 * 1024 * 1024,
  widgetPrefix: 'chatwoot-widget',
  maxMessageLength: 1024 * 1024,
  requestTimeout: 15_000,
  commandTimeout: 50_000,
  retry: { limit: 4, baseDelay: 1_000, maxDelay: 10_000 },
  androidChannel: 'ChatBridgeAndroid',
  iosHandler: 'chatBridge',
  flutterChannel: 'ChatBridgeFlutter',
  browserEvent: 'chatbridge',
} as const;

export class OptionsError extends Error {
  /** The option's name and what is wrong with it, for callers that word the message their own way. */
  declare readonly option: string;
  declare readonly problem: string;
  constructor(option: string, problem: string) {
    super(`ChatBridge option "${option}" ${problem}`);
    // Assigned, not class fields: fields would pull esbuild's define helper into the ES2017 bundle.
    this.option = option;
    this.problem = problem;
    this.name = 'OptionsError';
  }
}

type Check = (value: unknown) => boolean;
const isPositiveInteger: Check = (value) => Number.isSafeInteger(value) && (value as number) > 0;
const isNonNegativeInteger: Check = (value) => Number.isSafeInteger(value) && (value as number) >= 0;
const isNonEmptyString: Check = (value) => typeof value === 'string' && value !== '';

/** The option's value, or its default when absent; a present value that fails the check throws. */
function pick<T>(
  options: Record<string, unknown>,
  name: string,
  fallback: T,
  check: Check,
  problem: string,
  label = name,
): T {
  const value = options[name];
  if (value === undefined) return fallback;
  if (!check(value)) throw new OptionsError(label, problem);
  return value as T;
}

export function normalizeOptions(input: unknown, pageOrigin: string): ResolvedOptions {
  if (typeof input !== 'object' || input === null) throw new OptionsError('options', 'must be an object');
  const options = input as Record<string, unknown>;
  const positive = (name: keyof typeof DEFAULTS & keyof BridgeOptions) =>
    pick(options, name, DEFAULTS[name] as number, isPositiveInteger, 'must be a positive integer');
  const flag = (name: 'record' | 'forwardConversationToken') =>
    pick(options, name, false, (value) => typeof value === 'boolean', 'must be a boolean');
  const channel = (name: keyof ChannelNames | 'widgetPrefix') =>
    pick(options, name, DEFAULTS[name] as string, isNonEmptyString, 'must be a non-empty string');

  const baseUrl = parseBaseUrl(options['baseUrl']);
  const websiteToken = pick<string | undefined>(
    options,
    'websiteToken',
    undefined,
    (value) => typeof value === 'string' && (value === '' || value.length >= MIN_TOKEN_LENGTH),
    `must be a string of ${MIN_TOKEN_LENGTH}+ characters`,
  );
  const host = pick<HostName | undefined>(
    options,
    'host',
    undefined,
    (value) => HOST_NAMES.includes(value as HostName),
    `must be one of ${HOST_NAMES.join(', ')}`,
  );
  const maxFileSize = positive('maxFileSize');
  const maxMessageLength = positive('maxMessageLength');
  const retry = pick<Record<string, unknown>>(
    options,
    'retry',
    {},
    (value) => typeof value === 'object' && value !== null,
    'must be an object',
  );
  const retryField = (name: keyof RetryPolicy) =>
    pick(retry, name, DEFAULTS.retry[name], isNonNegativeInteger, 'must be a non-negative integer', `retry.${name}`);

  return {
    baseUrl: baseUrl.href.replace(/\/+$/, ''),
    apiOrigin: baseUrl.origin,
    websiteToken: websiteToken === '' ? undefined : websiteToken,
    host,
    // An opaque page origin ("null": file:// or loadHTMLString pages) is shared by every sandboxed
    // frame, so it is never allowed by default.
    allowedOrigins: parseAllowedOrigins(
      options['allowedOrigins'],
      [baseUrl.origin, pageOrigin].filter((origin) => origin !== 'null'),
    ),
    maxFileSize,
    widgetPrefix: channel('widgetPrefix'),
    maxMessageLength,
    // base64 grows data by 4/3, RFC 2045 line breaks (escaped "\r\n" after every 76 characters)
    // by 4 characters a line; the extra message length leaves room for names and the envelope.
    maxCommandLength: MAX_FILES * wrappedBase64Length(maxFileSize) + maxMessageLength,
    requestTimeout: positive('requestTimeout'),
    commandTimeout: positive('commandTimeout'),
    retry: { limit: retryField('limit'), baseDelay: retryField('baseDelay'), maxDelay: retryField('maxDelay') },
    record: flag('record'),
    forwardConversationToken: flag('forwardConversationToken'),
    androidChannel: channel('androidChannel'),
    iosHandler: channel('iosHandler'),
    flutterChannel: channel('flutterChannel'),
    browserEvent: channel('browserEvent'),
  };
}

function parseBaseUrl(value: unknown): URL {
  let url: URL | undefined;
  try {
    url = new URL(value as string);
  } catch {
    // reported below
  }
  if (typeof value !== 'string' || url === undefined || !/^https?:$/.test(url.protocol) || /[?#]/.test(url.href)) {
    throw new OptionsError(
      'baseUrl',
      'must be the absolute http(s) URL of the API root, without query or fragment, e.g. https://chat.example.com/api/v1',
    );
  }
  return url;
}

function parseAllowedOrigins(value: unknown, defaults: string[]): ReadonlySet<string> | '*' {
  if (value === undefined) return new Set(defaults);
  if (value === '*') return '*';
  if (!Array.isArray(value) || !value.every(isNonEmptyString)) {
    throw new OptionsError('allowedOrigins', 'must be an array of origins such as "https://app.example.com", or "*"');
  }
  return new Set(value as string[]);
}

/** Characters of `bytes` in base64 wrapped at 76 columns with "\r\n", as JSON text carries it. */
function wrappedBase64Length(bytes: number): number {
  const base64 = Math.ceil(bytes / 3) * 4;
  return base64 + Math.ceil(base64 / 76) * 4;
}
