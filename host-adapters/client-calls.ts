/**
 * The typed client's calls in flight: each command gets its id, is handed to the transport (or
 * held while the bridge cannot take it), carries a deadline, and settles exactly once. The client
 * (client.ts) builds its methods on this; the chunked upload (attachment-chunks.ts) and the
 * message following (message-following.ts) use it to send and to settle.
 *
 * createCalls runs past 80 lines on purpose: one closure over the calls waiting, the held flag and
 * the transport, whose parts (settling, deadlines, handing over, release) all read that state.
 */
import type { UploadProgress } from '../bridge/protocol/messages.js';
import { NAME_MAX } from '../bridge/protocol/limits.js';
import { bridgeCodeError, type ChatBridgeError, clientError } from './client-errors.js';
import type { ClientCommand, ClientTransport } from './client-transport.js';

export interface Call {
  command: ClientCommand;
  json: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Handed to the transport (else held). */
  sent: boolean;
  /** Its deadline's timer. (Not in the public declarations, which a project without DOM or Node types reads.) */
  timer: ReturnType<typeof setTimeout> | undefined;
  /** A `sendMessage`'s message id, by which message-state events settle it. */
  messageId?: string;
  onProgress?: (progress: UploadProgress) => void;
  /** The message-state events say the message waits in an outbox: no deadline. */
  queued?: boolean;
}

export type Outcome = { ok: true; result: unknown } | { ok: false; error: Error };

export interface Calls {
  /** Every call not yet settled, by command id, in the order they were made. */
  readonly waiting: Map<string, Call>;
  /** Makes a call: sent at once unless calls are held; settles with its result or a `ChatBridgeError`. */
  call(method: string, params?: object, messageId?: string, onProgress?: Call['onProgress']): Promise<unknown>;
  settle(call: Call, outcome: Outcome): void;
  fail(call: Call, error: Error): void;
  /** (Re)starts the call's deadline. */
  startDeadline(call: Call): void;
  /** Stops a call's deadline: its message waits in an outbox. */
  stopDeadline(call: Call): void;
  hold(): void;
  release(): void;
  /** Rejects every waiting call with `closed`; later calls reject at once. */
  close(): void;
}

/**
 * @param idOf the id of the next command (unique across pages, see client.ts).
 * @param timeout milliseconds a call may wait for its answer; `Infinity` for none.
 */
export function createCalls(transport: ClientTransport, idOf: () => string, timeout: number): Calls {
  const waiting = new Map<string, Call>();
  let held = false;
  let closed = false;

  const settle = (call: Call, outcome: Outcome) => {
    if (waiting.get(call.command.id) !== call) return;
    waiting.delete(call.command.id);
    if (call.timer !== undefined) clearTimeout(call.timer);
    if (outcome.ok) call.resolve(outcome.result);
    else call.reject(outcome.error);
  };
  const fail = (call: Call, error: Error) => settle(call, { ok: false, error });

  const stopDeadline = (call: Call) => {
    if (call.timer !== undefined) clearTimeout(call.timer);
    call.timer = undefined;
  };
  const startDeadline = (call: Call) => {
    stopDeadline(call);
    if (!Number.isFinite(timeout)) return;
    call.timer = setTimeout(
      () => fail(call, clientError('timeout', `[${call.command.method}] no answer within ${timeout} ms`)),
      timeout,
    );
  };

  /** Hands one call to the transport; false when the transport could not take it now. */
  const transmit = (call: Call): boolean => {
    // Marked first: a transport may deliver the answer before `send` returns (a browser page's
    // `ChatBridge.receive` answers an unknown method at once, through a synchronous event).
    call.sent = true;
    let taken: boolean | void;
    try {
      taken = transport.send(call.command, call.json);
    } catch (thrown) {
      const detail = thrown instanceof Error ? thrown.message : String(thrown);
      fail(
        call,
        bridgeCodeError('network_error', `[${call.command.method}] could not be handed to the bridge: ${detail}`),
      );
      return true;
    }
    if (taken !== false) return true;
    call.sent = false;
    return false;
  };

  const release = () => {
    held = false;
    for (const call of [...waiting.values()]) {
      if (call.sent || waiting.get(call.command.id) !== call) continue;
      if (!transmit(call)) {
        held = true;
        return;
      }
    }
  };

  const call: Calls['call'] = (method, params, messageId, onProgress) =>
    new Promise((resolve, reject) => {
      if (closed) return reject(clientError('closed', `[${method}] the chat-bridge client is closed`));
      const ready = commandOf(method, params, idOf());
      if (ready instanceof Error) return reject(ready);
      const { command, json } = ready;
      const entry: Call = { command, json, resolve, reject, sent: false, timer: undefined };
      if (messageId !== undefined) entry.messageId = messageId;
      if (onProgress) entry.onProgress = onProgress;
      waiting.set(command.id, entry);
      startDeadline(entry);
      if (!held && !transmit(entry)) held = true;
    });

  return {
    waiting,
    call,
    settle,
    fail,
    startDeadline,
    stopDeadline,
    hold: () => void (held = true),
    release,
    close() {
      closed = true;
      for (const entry of [...waiting.values()]) {
        fail(entry, clientError('closed', `[${entry.command.method}] the chat-bridge client was closed`));
      }
    },
  };
}

/**
 * The command for a call, as the bridge will read it, or why it cannot be sent: refused here
 * (an id too long for the bridge to answer under, params that are not JSON), not by the bridge.
 */
function commandOf(
  method: string,
  params: object | undefined,
  id: string,
): { command: ClientCommand; json: string } | ChatBridgeError {
  if (id.length > NAME_MAX) {
    return bridgeCodeError(
      'parse_error',
      `[${method}] command id is ${id.length} characters, over the bridge's ${NAME_MAX}: use a shorter idPrefix`,
    );
  }
  const command: ClientCommand = params === undefined ? { id, method } : { id, method, params };
  try {
    return { command, json: JSON.stringify(command) };
  } catch (thrown) {
    const detail = thrown instanceof Error ? thrown.message : String(thrown);
    return bridgeCodeError('parse_error', `[${method}] params cannot be serialised as JSON: ${detail}`);
  }
}
