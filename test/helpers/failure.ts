import { isBridgeError, type ErrorEvent } from '../../bridge/protocol/errors.js';

/** The error event a promise rejects with, as a BridgeError; anything else (or a fulfilment) fails the test. */
export async function failure(promise: Promise<unknown>): Promise<ErrorEvent> {
  const thrown = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!isBridgeError(thrown)) throw new Error(`expected a BridgeError, got ${String(thrown)}`);
  return thrown.event;
}
