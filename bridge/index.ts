/**
 * The library entry for TypeScript users. The injected scripts (`dist/chat-bridge.js`, and
 * `dist/chat-bridge.debug.js` with the recorder) are built from `startup/global.ts` and
 * `startup/global.debug.ts`; this entry exposes the same bridge as modules, recorder included, plus the types.
 *
 * Left out on purpose: inbound classification, the schemas (their inferred types are here), the
 * outbox, the retry policy and its timing. They are implementation, free to change; the wire
 * format (docs/reference.md) and these exports are the contract.
 * The few helpers at the end are here for the Node tools, which reach the runtime only through
 * this entry (docs/architecture.md, "Layers"): the channels' adapters, the redactor, reading a
 * backend's bodies and JSON text as the bridge does.
 * The app-side typed client is not here: it runs in the app, not the WebView, and has its own
 * entry (`chat-bridge/client`).
 */
// With the recorder: `record: true` works here as in the debug bundle (dist/chat-bridge.debug.js).
export { createBridge, createGlobal } from './startup/with-recorder.js';
export { VERSION } from './bridge.js';
export type { Bridge, CreateBridgeSettings } from './bridge.js';
export type { ChatBridgeGlobal, GlobalPlugins } from './startup/install.js';
export { createRecorder } from './recording/recorder.js';
export type { Recorder, RecorderFactory, RecorderSetup } from './recording/plug-in.js';
export { browserEnvironment } from './browser-environment.js';
export type {
  Environment,
  HttpRequest,
  HttpResponse,
  InboundMessage,
  Locks,
  RecordStore,
  HostScope,
  ProgressListener,
  TimerHandle,
  Timers,
  Upload,
} from './environment.js';
export { ErrorCode } from './protocol/errors.js';
export type { ErrorEvent, FieldErrors } from './protocol/errors.js';
export type {
  BackendObject,
  ChatMessage,
  ConversationTokenMessage,
  MessageState,
  MessageStateMessage,
  OutboundMessage,
  OutboxListing,
  ResponseMessage,
  WidgetMessage,
  ReadyMessage,
  UploadProgress,
} from './protocol/messages.js';
export type { CommandName, CommandResults, Conversation } from './protocol/command-results.js';
export type { Attachment, Contact, SendMessageParams } from './protocol/schemas.js';
export { MIN_TOKEN_LENGTH, normalizeOptions, OptionsError } from './options.js';
export { BACKENDS, DEFAULTS, HOST_NAMES } from './protocol/bridge-options.js';
export type { ResolvedOptions } from './options.js';
export type { BackendName, BridgeOptions, HostName, ChannelNames, RetryPolicy } from './protocol/bridge-options.js';
export type { HostAdapter } from './outbound/channel.js';
// For the Node tools: the stand-in channels find and encode as the adapters do, the replay and
// the doctor redact as the bridge does, and the doctor reads backend answers exactly as it does
// (JSON text that cannot pollute prototypes).
export { adapters } from './outbound/adapters/index.js';
export { createRedactor } from './outbound/redact.js';
export { REDACTED } from './protocol/limits.js';
export type { Redactor } from './outbound/redact.js';
export { authTokenOf, errorMessageOf } from './backend/backend-bodies.js';
export { parseJson } from './protocol/safe-json.js';
