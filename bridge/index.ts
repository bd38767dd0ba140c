/**
 * The library entry for TypeScript users. The injected script (`dist/chat-bridge.js`) is built
 * from `global.ts`; this entry exposes the same bridge as modules, plus the types.
 *
 * Left out on purpose: inbound parsing, schemas, the outbox and retry internals. They are
 * implementation, free to change; the wire format (README) and these exports are the contract.
 * The app-side typed client is not here: it runs in the app, not the WebView, and has its own
 * entry (`chat-bridge/client`).
 */
export { createBridge, VERSION } from './bridge.js';
export type { Bridge, CreateBridgeSettings } from './bridge.js';
export { createGlobal } from './install.js';
export type { ChatBridgeGlobal } from './install.js';
export { browserEnvironment } from './environment.js';
export type {
  Environment,
  HttpRequest,
  HttpResponse,
  InboundMessage,
  KeyValueStorage,
  HostScope,
  TimerHandle,
  Timers,
} from './environment.js';
export { ErrorCode } from './outbound/errors.js';
export type { ErrorEvent, FieldErrors } from './outbound/errors.js';
export type {
  MessageState,
  MessageStateMessage,
  OutboundMessage,
  ResponseMessage,
  WidgetMessage,
  ReadyMessage,
} from './outbound/messages.js';
export { DEFAULTS, HOST_NAMES, normalizeOptions, OptionsError } from './options.js';
export type { BridgeOptions, HostName, ResolvedOptions, ChannelNames } from './options.js';
export type { RetryPolicy } from './backend/retry-timing.js';
export { retryDelay, parseRetryAfter } from './backend/retry-timing.js';
export { adapters } from './outbound/adapters/index.js';
export { REDACTED } from './outbound/redact.js';
// For the Node tools (the doctor reads backend answers exactly as the bridge does): reading a
// backend body and JSON text that cannot pollute prototypes.
export { authTokenOf, errorMessageOf } from './backend/backend-bodies.js';
export { parseJson } from './inbound/safe-json.js';
export type { HostAdapter } from './outbound/channel.js';
