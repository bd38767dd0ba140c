/**
 * A typed client for TypeScript hosts (the React Native side, browser pages): each method
 * sends one host command and resolves with its result or rejects with its error event,
 * correlating responses by id.
 *
 * Why not comlink: comlink's wire protocol needs a structured-clone `postMessage` endpoint in
 * both directions and transfers proxies; three of the four native channels carry strings
 * only, and the bridge's responses already carry ids. This is the part of comlink the bridge
 * needs, without the ~1.6 KB it would add to the injected bundle (it lives only host-side).
 */
import type { ErrorEvent } from '../bridge/outbound/errors.js';
import type { OutboundMessage } from '../bridge/outbound/messages.js';
import type { Contact, SendMessageParams } from '../bridge/inbound/schemas.js';

export interface ClientTransport {
  /** Hands a command to the bridge: `ChatBridge.receive`, `injectJavaScript`, `postMessage`... */
  send(command: { id: string; method: string; params?: object }): void;
}

export interface ChatClient {
  init(): Promise<{ config: Record<string, unknown> }>;
  getConversation(contact?: Contact): Promise<unknown>;
  createConversation(contact?: Contact): Promise<unknown>;
  sendMessage(params: SendMessageParams): Promise<unknown>;
  call(method: string, params?: object): Promise<unknown>;
  /**
   * Feeds one message from the bridge. Returns true when it was the response to a call of
   * this client (and settled it), false for anything else (events for `onEvent`).
   */
  handle(message: OutboundMessage): boolean;
  /** Calls still waiting for their response. */
  readonly pending: number;
  /** Rejects every waiting call; later responses are ignored. */
  close(): void;
}

/** A rejected call carries the error event's fields, so `catch (e) { e.code }` works. */
export class ChatBridgeError extends Error {
  override readonly name = 'ChatBridgeError';
  readonly code: string;
  readonly status: number | undefined;
  readonly errors: Record<string, string[]> | undefined;
  constructor(readonly event: ErrorEvent) {
    super(event.message);
    this.code = event.code;
    this.status = event.status;
    this.errors = event.errors;
  }
}

/**
 * @param idPrefix starts every command id, so two clients on one bridge never collide.
 * @param random the source of the session part of ids. @default Math.random
 */
export function createClient(transport: ClientTransport, idPrefix = 'c', random = Math.random): ChatClient {
  const waiting = new Map<string, { resolve(value: unknown): void; reject(error: Error): void }>();
  // Ids stay unique across reloads (as Capacitor's random callback start does): a response the
  // bridge sends for a command of an earlier page can never match a call of this one.
  const session = Math.floor(random() * 36 ** 6).toString(36);
  let counter = 0;

  const call = (method: string, params?: object): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = `${idPrefix}${++counter}.${session}`;
      waiting.set(id, { resolve, reject });
      try {
        transport.send(params === undefined ? { id, method } : { id, method, params });
      } catch (error) {
        waiting.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });

  return {
    init: () => call('init') as Promise<{ config: Record<string, unknown> }>,
    getConversation: (contact) => call('getConversation', contact),
    createConversation: (contact) => call('createConversation', contact),
    sendMessage: (params) => call('sendMessage', params),
    call,
    handle(message) {
      if (message.type !== 'response') return false;
      const entry = waiting.get(message.id);
      if (entry === undefined) return false;
      waiting.delete(message.id);
      if (message.ok) entry.resolve(message.result);
      else entry.reject(new ChatBridgeError(message.error));
      return true;
    },
    get pending() {
      return waiting.size;
    },
    close() {
      for (const entry of waiting.values()) entry.reject(new Error('chat-bridge client closed'));
      waiting.clear();
    },
  };
}
