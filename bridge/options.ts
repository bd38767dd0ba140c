/**
 * The options' check: one `normalizeOptions` that rejects bad input early, naming the option, so a
 * misconfigured host fails at install and not on the first message. The options themselves and
 * their defaults are the install side of the contract: protocol/bridge-options.ts.
 *
 * normalizeOptions runs past 80 lines on purpose: each option is a few lines of one pick, in the
 * order of BridgeOptions, and the derived limits (the backend's file size, the command cap) read
 * the picks above them; split apart, each part would take the raw object and restate the picks.
 */
import {
  BACKENDS,
  DEFAULTS,
  HOST_NAMES,
  type BackendName,
  type BridgeOptions,
  type ChannelNames,
  type HostName,
  type RetryPolicy,
} from './protocol/bridge-options.js';
import { CHATWOOT_MAX_FILE_SIZE, MAX_FILES } from './protocol/service-rules.js';

export interface ResolvedOptions extends ChannelNames {
  baseUrl: string;
  apiOrigin: string;
  backend: BackendName;
  websiteToken: string | undefined;
  host: HostName | undefined;
  allowedOrigins: ReadonlySet<string> | '*';
  /** Within the backend's own limit (Chatwoot's 40 MiB), which a larger option does not raise. */
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
  channelSecret: string | undefined;
}

/**
 * Shorter values are not tokens: the options refuse such a website token, a config answer with
 * such an authToken is a `config_error`, and widget fields with such values are dropped without
 * being learned (scrubbing a 3-letter "token" would blank ordinary words).
 */
export const MIN_TOKEN_LENGTH = 6;

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

/**
 * The option `name` as the host gave it. Options are read by their name as a string, never as a
 * property: the bundle shortens the resolved options' field names (INTERNAL_PROPERTIES in
 * scripts/shared-settings.mjs), and would shorten a property read of the host's too.
 */
const given = (options: Record<string, unknown>, name: string): unknown => options[name];

/** The option's value, or its default when absent; a present value that fails the check throws. */
function pick<T>(
  options: Record<string, unknown>,
  name: string,
  fallback: T,
  check: Check,
  problem: string,
  label = name,
): T {
  const value = given(options, name);
  if (value === undefined) return fallback;
  if (!check(value)) throw new OptionsError(label, problem);
  return value as T;
}

export function normalizeOptions(input: unknown, pageOrigin: string): ResolvedOptions {
  if (typeof input !== 'object' || input === null) throw new OptionsError('options', 'must be an object');
  const options = input as Record<string, unknown>;
  const positive = (name: keyof BridgeOptions, fallback: number) =>
    pick(options, name, fallback, isPositiveInteger, 'must be a positive integer');
  const flag = (name: keyof BridgeOptions) =>
    pick(options, name, false, (value) => typeof value === 'boolean', 'must be a boolean');
  const channel = (name: keyof BridgeOptions, fallback: string) =>
    pick(options, name, fallback, isNonEmptyString, 'must be a non-empty string');

  const baseUrl = parseBaseUrl(given(options, 'baseUrl'));
  const websiteToken = pick<string | undefined>(
    options,
    'websiteToken',
    undefined,
    (value) => typeof value === 'string' && (value === '' || value.length >= MIN_TOKEN_LENGTH),
    `must be ${MIN_TOKEN_LENGTH}+ characters`,
  );
  const channelSecret = pick<string | undefined>(
    options,
    'channelSecret',
    undefined,
    (value) => typeof value === 'string' && value.length >= 16,
    'must be 16+ characters',
  );
  const host = pick<HostName | undefined>(
    options,
    'host',
    undefined,
    (value) => HOST_NAMES.includes(value as HostName),
    `must be one of ${HOST_NAMES.join(', ')}`,
  );
  const backend = pick<BackendName>(
    options,
    'backend',
    'contract',
    (value) => BACKENDS.includes(value as BackendName),
    `must be one of ${BACKENDS.join(', ')}`,
  );
  const chatwoot = backend === 'chatwoot';
  const limit = chatwoot ? CHATWOOT_MAX_FILE_SIZE : Infinity;
  const maxFileSize = Math.min(positive('maxFileSize', chatwoot ? limit : DEFAULTS.maxFileSize), limit);
  const maxMessageLength = positive('maxMessageLength', DEFAULTS.maxMessageLength);
  const retry = pick<Record<string, unknown>>(
    options,
    'retry',
    {},
    (value) => typeof value === 'object' && value !== null,
    'must be an object',
  );
  const retryField = (name: keyof RetryPolicy, fallback: number) =>
    pick(retry, name, fallback, isNonNegativeInteger, 'must be a non-negative integer', `retry.${name}`);

  return {
    baseUrl: baseUrl.href.replace(/\/+$/, ''),
    apiOrigin: baseUrl.origin,
    channelSecret,
    backend,
    websiteToken: websiteToken || undefined,
    host,
    // An opaque page origin ("null": file:// or loadHTMLString pages) is shared by every sandboxed
    // frame, so it is never allowed by default.
    allowedOrigins: parseAllowedOrigins(
      given(options, 'allowedOrigins'),
      [baseUrl.origin, pageOrigin].filter((origin) => origin !== 'null'),
    ),
    maxFileSize,
    widgetPrefix: channel('widgetPrefix', DEFAULTS.widgetPrefix),
    maxMessageLength,
    // base64 grows data by 4/3, RFC 2045 line breaks (escaped "\r\n" after every 76 characters)
    // by 4 characters a line; the extra message length leaves room for names and the envelope.
    maxCommandLength: MAX_FILES * wrappedBase64Length(maxFileSize) + maxMessageLength,
    requestTimeout: positive('requestTimeout', DEFAULTS.requestTimeout),
    commandTimeout: positive('commandTimeout', DEFAULTS.commandTimeout),
    retry: {
      limit: retryField('limit', DEFAULTS.retry.limit),
      baseDelay: retryField('baseDelay', DEFAULTS.retry.baseDelay),
      maxDelay: retryField('maxDelay', DEFAULTS.retry.maxDelay),
    },
    record: flag('record'),
    forwardConversationToken: flag('forwardConversationToken'),
    androidChannel: channel('androidChannel', DEFAULTS.androidChannel),
    iosHandler: channel('iosHandler', DEFAULTS.iosHandler),
    flutterChannel: channel('flutterChannel', DEFAULTS.flutterChannel),
    browserEvent: channel('browserEvent', DEFAULTS.browserEvent),
  };
}

function parseBaseUrl(value: unknown): URL {
  try {
    const url = new URL(value as string);
    if (typeof value === 'string' && /^https?:$/.test(url.protocol) && !/[?#]/.test(url.href)) return url;
  } catch {
    // Not a URL: refused below, as any other.
  }
  throw new OptionsError('baseUrl', 'must be an http(s) URL without query or fragment');
}

function parseAllowedOrigins(value: unknown, defaults: string[]): ReadonlySet<string> | '*' {
  if (value === undefined) return new Set(defaults);
  if (value === '*') return '*';
  if (!Array.isArray(value) || !value.every(isNonEmptyString)) {
    throw new OptionsError('allowedOrigins', 'must be an array of origins, or "*"');
  }
  return new Set(value as string[]);
}

/** Characters of `bytes` in base64 wrapped at 76 columns with "\r\n", as JSON text carries it. */
function wrappedBase64Length(bytes: number): number {
  const base64 = Math.ceil(bytes / 3) * 4;
  return base64 + Math.ceil(base64 / 76) * 4;
}
