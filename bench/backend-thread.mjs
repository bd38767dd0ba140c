/**
 * The reference backend on a thread of its own, for the round trip: the bench's main thread also
 * reads every message the WebKit host's native handler receives (a line of JSON per crossing) and
 * drives the browsers, and an answer must not wait behind that. On a device the app's handler does
 * not run in the chat server.
 */
import { once } from 'node:events';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { startReferenceBackend } from '../reference-backend/server.mjs';

/**
 * Starts it; `close` stops it and ends the thread.
 * @param {import('../reference-backend/server.mjs').ReferenceBackendOptions} options plain data (it is copied to the thread)
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startBackendThread(options) {
  const worker = new Worker(new URL(import.meta.url), { workerData: options });
  const [url] = await Promise.race([
    once(worker, 'message'),
    once(worker, 'error').then(([error]) => Promise.reject(error)),
  ]);
  return {
    url,
    close: async () => {
      const exited = once(worker, 'exit');
      worker.postMessage('close');
      await exited;
    },
  };
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const backend = await startReferenceBackend(workerData);
  port.once('message', async () => {
    await backend.close();
    port.close();
  });
  port.postMessage(backend.url);
}
