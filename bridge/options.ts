/**
 * Bridge options: one defaults object and one `normalizeOptions` that rejects bad input early,
 * naming the option, so a misconfigured host fails at install and not on the first message.
 */
import type { RetryPolicy } from './retry.js';

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
  /** The widget inbox's website token. Without it, commands fail with `auth_failed` and send nothing. */
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
  /** Derived: admits 5 attachments of `maxFileSize` in base64 plus the envelope. */
  maxCommandLength: number;
  requestTimeout: number;
  commandTimeout: number;
  retry: RetryPolicy;
  record: boolean;
}

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

/** The service's limit on attachments per message. */
export const MAX_FILES = 5;

export class OptionsError extends Error {
  override readonly name = 'OptionsError';
  constructor(option: string, problem: string) {
    super(`ChatBridge option "${option}" ${problem}`);
  }
}

export function normalizeOptions(input: unknown, pageOrigin: string): ResolvedOptions {
  if (typeof input !== 'object' || input === null) throw new OptionsError('options', 'must be an object');
  const options = input as Record<string, unknown>;

  const baseUrl = parseBaseUrl(options['baseUrl']);
  const websiteToken = optionalString(options, 'websiteToken');
  const host = options['host'];
  if (host !== undefined && !HOST_NAMES.includes(host as HostName)) {
    throw new OptionsError('host', `must be one of ${HOST_NAMES.join(', ')}`);
  }
  const maxFileSize = positiveInteger(options, 'maxFileSize', DEFAULTS.maxFileSize);
  const maxMessageLength = positiveInteger(options, 'maxMessageLength', DEFAULTS.maxMessageLength);
  const retry = options['retry'] ?? {};
  if (typeof retry !== 'object' || retry === null) throw new OptionsError('retry', 'must be an object');
  const retryInput = retry as Record<string, unknown>;

  return {
    baseUrl: baseUrl.href.replace(/\/+$/, ''),
    apiOrigin: baseUrl.origin,
    websiteToken: websiteToken === '' ? undefined : websiteToken,
    host: host as HostName | undefined,
    allowedOrigins: parseAllowedOrigins(options['allowedOrigins'], [baseUrl.origin, pageOrigin]),
    maxFileSize,
    widgetPrefix: nonEmptyString(options, 'widgetPrefix', DEFAULTS.widgetPrefix),
    maxMessageLength,
    // base64 grows data by 4/3; the extra message length leaves room for names and the envelope.
    maxCommandLength: MAX_FILES * Math.ceil(maxFileSize / 3) * 4 + maxMessageLength,
    requestTimeout: positiveInteger(options, 'requestTimeout', DEFAULTS.requestTimeout),
    commandTimeout: positiveInteger(options, 'commandTimeout', DEFAULTS.commandTimeout),
    retry: {
      limit: nonNegativeInteger(retryInput, 'retry.limit', 'limit', DEFAULTS.retry.limit),
      baseDelay: nonNegativeInteger(retryInput, 'retry.baseDelay', 'baseDelay', DEFAULTS.retry.baseDelay),
      maxDelay: nonNegativeInteger(retryInput, 'retry.maxDelay', 'maxDelay', DEFAULTS.retry.maxDelay),
    },
    record: options['record'] === true,
    androidChannel: nonEmptyString(options, 'androidChannel', DEFAULTS.androidChannel),
    iosHandler: nonEmptyString(options, 'iosHandler', DEFAULTS.iosHandler),
    flutterChannel: nonEmptyString(options, 'flutterChannel', DEFAULTS.flutterChannel),
    browserEvent: nonEmptyString(options, 'browserEvent', DEFAULTS.browserEvent),
  };
}

function parseBaseUrl(value: unknown): URL {
  if (typeof value !== 'string' || value === '') throw new OptionsError('baseUrl', 'is required: the absolute URL of the API root');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OptionsError('baseUrl', 'must be an absolute URL such as https://chat.example.com/api/v1');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OptionsError('baseUrl', 'must use http or https');
  if (url.search || url.hash) throw new OptionsError('baseUrl', 'must not carry a query string or fragment');
  return url;
}

function parseAllowedOrigins(value: unknown, defaults: string[]): ReadonlySet<string> | '*' {
  if (value === undefined) return new Set(defaults);
  if (value === '*') return '*';
  if (!Array.isArray(value) || !value.every((origin) => typeof origin === 'string' && origin !== '')) {
    throw new OptionsError('allowedOrigins', 'must be an array of origins such as "https://app.example.com", or "*"');
  }
  return new Set(value as string[]);
}

function optionalString(options: Record<string, unknown>, name: string): string | undefined {
  const value = options[name];
  if (value === undefined || typeof value === 'string') return value;
  throw new OptionsError(name, 'must be a string');
}

function nonEmptyString(options: Record<string, unknown>, name: string, fallback: string): string {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value === '') throw new OptionsError(name, 'must be a non-empty string');
  return value;
}

function positiveInteger(options: Record<string, unknown>, name: string, fallback: number): number {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) throw new OptionsError(name, 'must be a positive integer');
  return value;
}

function nonNegativeInteger(options: Record<string, unknown>, label: string, name: string, fallback: number): number {
  const value = options[name];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new OptionsError(label, 'must be a non-negative integer');
  return value;
}
