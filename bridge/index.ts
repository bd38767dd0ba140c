/**
 * The library entry for TypeScript users. The injected script (`dist/chat-bridge.js`) is built
 * from `global.ts`; this entry exposes the same bridge as modules, plus the types.
 *
 * Left out on purpose: inbound parsing, schemas, the outbox and retry internals. They are
 * implementation, free to change; the wire format (README) and these exports are the contract.
 */
export { createBridge, VERSION } from './bridge.js';
export type { Bridge, CreateBridgeSettings } from './bridge.js';
export { createGlobal } from './install.js';
export type { ChatBridgeGlobal } from './install.js';
export { browserEnvironment } from './environment.js';
export type { Environment, HttpRequest, HttpResponse, InboundMessage, KeyValueStorage, HostScope } from './environment.js';
export { ErrorCode } from './errors.js';
export type { ErrorEvent, FieldErrors } from './errors.js';
export type { OutboundMessage, ResponseMessage, WidgetMessage, ReadyMessage } from './messages.js';
export { DEFAULTS, HOST_NAMES, normalizeOptions, OptionsError } from './options.js';
export type { BridgeOptions, HostName, ResolvedOptions, ChannelNames } from './options.js';
export type { RetryPolicy } from './retry.js';
export { retryDelay, parseRetryAfter } from './retry.js';
export { adapters } from '../host-adapters/index.js';
export type { HostAdapter } from '../host-adapters/channel.js';
export { createClient, ChatBridgeError } from '../host-adapters/client.js';
export type { ChatClient, ClientTransport } from '../host-adapters/client.js';
