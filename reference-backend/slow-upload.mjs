// @ts-check
/**
 * The `slow-upload` fault: the request body is read at a slow link's pace. On loopback an
 * upload otherwise goes out at once, and a page could not show (nor a test see) its progress.
 * Reading slowly holds the data in the socket buffers, so the browser's upload progress
 * follows the pace, after the first buffers' worth (about 4 MiB on loopback).
 */
import { Readable } from 'node:stream';

/**
 * The request, its body now read lazily at `kibPerSecond`: handlers read it as they would `req`.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} kibPerSecond
 * @returns {import('node:http').IncomingMessage}
 */
export function pacedRequest(req, kibPerSecond) {
  const bytesPerMs = (Number.isFinite(kibPerSecond) && kibPerSecond > 0 ? kibPerSecond : 512) * 1.024;
  async function* paced() {
    for await (const chunk of req) {
      await new Promise((resolve) => setTimeout(resolve, chunk.length / bytesPerMs));
      yield chunk;
    }
  }
  const body = Readable.from(paced(), { objectMode: false });
  // What the handlers read besides the body.
  return /** @type {any} */ (
    Object.assign(body, { headers: req.headers, method: req.method, url: req.url, socket: req.socket })
  );
}
