/**
 * Error codes and the one error event shape every failure is turned into.
 *
 * The codes are an `as const` object so the string union is derived from it and can never
 * drift from the documented table (docs/reference.md "Error codes", checked by test/docs/reference.spec.ts).
 */
export const ErrorCode = {
  /** A message from the widget or the host could not be parsed or did not match its schema. */
  ParseError: 'parse_error',
  /** The request never got an HTTP answer: offline, DNS, CORS refusal, timeout. */
  NetworkError: 'network_error',
  /** The website token or the auth token was refused (401), or no website token is configured. */
  AuthFailed: 'auth_failed',
  /** `GET /config` answered without a usable `authToken`: backend not running or inbox not set up. */
  ConfigError: 'config_error',
  /** 400 that is not one of the more specific message rules below. */
  BadRequest: 'bad_request',
  /** A text message with no content and no attachments (400). */
  EmptyMessage: 'empty_message',
  /** More than 5 attachments in one message (400). */
  TooManyFiles: 'too_many_files',
  /** An attachment whose MIME type the service does not accept (400). */
  UnsupportedFileType: 'unsupported_file_type',
  /** An attachment over the per-file size limit (413, or refused locally). */
  FileTooLarge: 'file_too_large',
  /**
   * A message's upload kept failing with no answer the page could read while the server answered
   * other requests: a server or proxy in front of it refused the body (most often a body size
   * limit whose error answer carries no CORS headers). Something must change on the server.
   */
  UploadRefused: 'upload_refused',
  /** 404 that the bridge could not recover from. */
  NotFound: 'not_found',
  /** 422 with field-level `errors`. */
  ValidationError: 'validation_error',
  /** 429 after the retry budget was spent. */
  RateLimited: 'rate_limited',
  /** 5xx. */
  ServerError: 'server_error',
  /** The widget posted its `error` event. */
  WidgetError: 'widget_error',
  /**
   * A message could not be stored (quota, storage disabled, private mode): it is sent from
   * memory and lost if the page closes first. Also: a stored message that was not valid, dropped.
   */
  StorageError: 'storage_error',
  /**
   * The outbox's storage was found wiped (site data cleared, the database deleted, storage evicted):
   * messages queued before it may be gone. Said once; an app re-sends what it still shows as pending.
   */
  StorageWiped: 'storage_wiped',
  /** Not a failure: after `storage_error` or `storage_wiped`, every waiting message is stored again. */
  StorageRestored: 'storage_restored',
  /**
   * The bridge was installed for another inbox (another website token or `baseUrl`) while this
   * message waited: it stays queued for its own inbox, and is sent when that inbox is installed
   * again, never with another's credentials. Do not send it again under the new inbox.
   */
  InboxSwitched: 'inbox_switched',
  /** The host cancelled the message (`cancelMessage`) before it was sent. */
  Cancelled: 'cancelled',
  /** A host command's `method` names no command the bridge has. */
  UnknownMethod: 'unknown_method',
  /** The host's channel did not appear in time, or events waiting for it were dropped. */
  ChannelError: 'channel_error',
  /**
   * Not the bridge's own: a host's helper says the WebView's web process ended (killed for memory,
   * or crashed) and the page is being reloaded. Calls in flight are followed on the new page, and
   * its outbox sends what the dead page left.
   */
  WebViewRestarted: 'webview_restarted',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * Whether the same action (the same command, the same message under its `messageId`) can succeed
 * later with nothing changed by the user or the app, decided here alone, by code: these codes say
 * yes (no network or no answer in time, 429, 5xx, storage that may come back, a page reloaded);
 * every other code says something must change first (credentials, the message, its files, the
 * command), or, for `storage_restored`, that nothing failed. A code's status changes nothing: every
 * 5xx is a `server_error`, every other 4xx a `bad_request`. docs/reference.md's table says the same
 * (test/docs/reference.spec.ts). A list, not a row per code, for the bundle's bytes: the type
 * below makes a code that is in neither list fail to compile.
 */
export const RETRYABLE_CODES = [
  'network_error',
  'rate_limited',
  'server_error',
  'storage_error',
  'storage_wiped',
  'channel_error',
] as const satisfies readonly ErrorCode[];

/**
 * The codes only a host's helper sends (host-adapters/react-native-host.ts, the native packages),
 * never the bridge; retryable: the page is reloaded. Kept apart so that the bundle, which never
 * sends them, carries neither them nor their list: `errorEvent` takes the bridge's codes only,
 * `hostErrorEvent` these.
 */
export const HOST_CODES = ['webview_restarted'] as const satisfies readonly ErrorCode[];
export type HostCode = (typeof HOST_CODES)[number];
/** The codes the bridge itself sends. */
export type BridgeCode = Exclude<ErrorCode, HostCode>;

/** The codes after which something must change first (type-only: the bundle carries one list). */
type NotRetryable =
  | 'parse_error'
  | 'auth_failed'
  | 'config_error'
  | 'bad_request'
  | 'empty_message'
  | 'too_many_files'
  | 'unsupported_file_type'
  | 'file_too_large'
  | 'upload_refused'
  | 'not_found'
  | 'validation_error'
  | 'widget_error'
  | 'storage_restored'
  | 'inbox_switched'
  | 'cancelled'
  | 'unknown_method';

/** Compiles only when every code is in exactly one of the two lists; the error names the one that is not. */
type Decided<Undecided extends never> = Undecided;
type Retryable = (typeof RETRYABLE_CODES)[number] | HostCode;
export type EveryCodeDecided = Decided<Exclude<ErrorCode, Retryable | NotRetryable> | Extract<Retryable, NotRetryable>>;

/** See RETRYABLE_CODES and HOST_CODES. */
export const isRetryable = (code: ErrorCode): boolean =>
  (RETRYABLE_CODES as readonly string[]).includes(code) || (HOST_CODES as readonly string[]).includes(code);

/** Field-level validation problems, in the service's ErrorResponse shape: `{email: ["is invalid"]}`. */
export type FieldErrors = Record<string, string[]>;

/** The single shape in which every failure reaches the host. */
export interface ErrorEvent {
  type: 'error';
  code: ErrorCode;
  message: string;
  /** The HTTP status, or the one the server would have given for a failure refused locally. */
  status?: number;
  /** 422 field errors, exactly as the server gave them (or as it would have). */
  errors?: FieldErrors;
  /**
   * The same action (the same command, the same message under its `messageId`) can succeed later
   * with nothing changed: a retry button, or wait. False: something must change first.
   */
  retryable: boolean;
  /** When a retry is due (ms since the epoch), where the bridge knows: the server's `Retry-After`, the outbox's backoff. */
  retryAt?: number;
}

/**
 * A failure travelling inside the bridge. It carries the finished event, so its identity
 * survives every `await` and `catch` on the way to the host (checked by `name`, not
 * `instanceof`, since errors may cross realms in tests and replays).
 */
export class BridgeError extends Error {
  // Assigned, not a class field: a field would pull esbuild's define helper into the ES2017 bundle.
  declare readonly event: ErrorEvent;
  constructor(event: ErrorEvent) {
    super(event.message);
    this.event = event;
    this.name = 'BridgeError';
  }
}

/** An error event; `status`, field `errors` and `retryAt` where known (fields left out when undefined). */
export function errorEvent(
  code: BridgeCode,
  message: string,
  status?: number,
  errors?: FieldErrors,
  retryAt?: number,
): ErrorEvent {
  // A field is written only when it is known (spreading `false` writes nothing).
  return {
    type: 'error',
    code,
    message,
    retryable: (RETRYABLE_CODES as readonly string[]).includes(code),
    ...(status !== undefined && { status }),
    ...(errors && { errors }),
    ...(retryAt !== undefined && { retryAt }),
  };
}

/** The same failure with a note after its message (what the outbox made of it), and `extra` fields. */
export const withNote = (error: ErrorEvent, note: string, extra?: false | Partial<ErrorEvent>): ErrorEvent => ({
  ...error,
  message: `${error.message}; ${note}`,
  ...extra,
});

/** The error event a host's helper sends in the bridge's stream (HOST_CODES). */
export const hostErrorEvent = (code: HostCode, message: string): ErrorEvent => ({
  type: 'error',
  code,
  message,
  retryable: isRetryable(code),
});

export function bridgeError(...args: Parameters<typeof errorEvent>): BridgeError {
  return new BridgeError(errorEvent(...args));
}

export function isBridgeError(value: unknown): value is BridgeError {
  return value instanceof Error && value.name === 'BridgeError' && 'event' in value;
}

/** Whether a call failed without an answer the page could read (offline, unreachable, no CORS, timed out). */
export const gotNoAnswer = (thrown: unknown) => isBridgeError(thrown) && thrown.event.code === 'network_error';

/**
 * Turns anything thrown into an error event. Non-bridge errors are programming errors or
 * platform surprises; they still reach the host, as the code the caller names.
 */
export function toErrorEvent(thrown: unknown, fallback: BridgeCode, where: string): ErrorEvent {
  if (isBridgeError(thrown)) return thrown.event;
  const detail = thrown instanceof Error ? thrown.message : typeof thrown === 'string' ? thrown : 'unknown failure';
  return errorEvent(fallback, `${where} ${detail}`);
}
