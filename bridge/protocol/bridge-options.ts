/**
 * The options a host installs the bridge with (`ChatBridge.install`, `window.chatBridgeSettings`, the
 * React Native host's props) and their defaults: the install side of the wire contract,
 * documented in docs/reference.md. Their check is bridge/options.ts's `normalizeOptions`.
 */
/** Retries of 429 answers (backend/retry-timing.ts says when). */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  limit: number;
  /** Delay before the first retry when the server gives no Retry-After, in ms. */
  baseDelay: number;
  /** No single wait is longer; a Retry-After beyond it ends the retries. */
  maxDelay: number;
}

export const HOST_NAMES = ['react-native', 'android', 'ios', 'flutter', 'browser'] as const;
export type HostName = (typeof HOST_NAMES)[number];

/**
 * The kinds of backend the bridge speaks to: the service contract, or a Chatwoot installation's
 * widget API (docs/chatwoot.md; backend/chatwoot-profile.ts).
 */
export const BACKENDS = ['contract', 'chatwoot'] as const;
export type BackendName = (typeof BACKENDS)[number];

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
  /**
   * Absolute URL of the API root, e.g. `https://chat.example.com/api/v1`; with `backend: 'chatwoot'`,
   * the installation's root, e.g. `https://chat.example.com`. Required.
   */
  baseUrl: string;
  /**
   * The backend's kind: the service contract, or Chatwoot's widget API (its paths, its
   * `X-Auth-Token`, the widget's own contact, its errors and limits: docs/chatwoot.md). @default "contract"
   */
  backend?: BackendName;
  /**
   * The widget inbox's website token, at least 6 characters (a shorter one is refused: it could
   * not be scrubbed from text safely). Without it, commands fail with `auth_failed` and send nothing.
   */
  websiteToken?: string;
  /** The native platform. @default detected from the globals present, else "browser" */
  host?: HostName;
  /** Origins whose posted messages are accepted. @default [origin of baseUrl, the page's origin] */
  allowedOrigins?: string[] | '*';
  /**
   * Largest attachment accepted, in bytes. @default 5242880 (5 MiB, the widget's limit); with
   * `backend: 'chatwoot'` 41943040 (40 MiB, Chatwoot's limit), which a larger value does not raise
   */
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
  /**
   * A secret, 16+ characters, that the bridge puts before every text payload it delivers
   * (`secret + JSON`), so the host can tell the bridge's deliveries from what a script of the
   * page posts to the same channel. The bridge takes it out of `window.chatBridgeSettings` as it
   * installs, before the page's scripts run, and it never appears in an event or a recording. The
   * React Native host makes one and checks it (`createReactNativeHost`); the native receivers do not
   * read it yet: leave it unset there. @default none
   */
  channelSecret?: string;
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
