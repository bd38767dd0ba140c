// @ts-check
/**
 * Request bodies in, replies out. Handlers return a Reply (or throw an
 * HttpError) instead of writing to the socket, so one place decides the
 * headers every response carries.
 */

/**
 * @typedef {{
 *   status: number,
 *   body?: unknown,
 *   raw?: {contentType: string, text: string},
 *   headers?: Record<string, string>,
 * }} Reply
 * `body` is sent as JSON; `raw` is for the faults that must send something that is not.
 */

/** @typedef {{message: string, errors?: Record<string, string[]>}} ErrorResponse */

/** An error that is already an HTTP answer: thrown from deep inside parsing, turned into a Reply at the top. */
export class HttpError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   * @param {{errors?: Record<string, string[]>, headers?: Record<string, string>}} [extra]
   */
  constructor(status, message, extra = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.errors = extra.errors;
    this.headers = extra.headers;
  }

  /** @returns {Reply} */
  toReply() {
    return errorReply(this.status, this.message, this.errors, this.headers);
  }
}

/**
 * @param {number} status
 * @param {string} message
 * @param {Record<string, string[]>} [errors]
 * @param {Record<string, string>} [headers]
 * @returns {Reply}
 */
export function errorReply(status, message, errors, headers) {
  /** @type {ErrorResponse} */
  const body = { message };
  if (errors) body.errors = errors;
  return headers ? { status, body, headers } : { status, body };
}

/**
 * Reads the whole body, refusing to buffer more than `limit` bytes.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} limit
 * @param {string} tooLargeMessage
 * @returns {Promise<Buffer>}
 */
export async function readBody(req, limit, tooLargeMessage) {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new HttpError(413, tooLargeMessage);
  /** @type {Buffer[]} */
  const chunks = [];
  let total = 0;
  for await (const chunk of req) {
    total += chunk.length;
    // Stop buffering but let Node discard the rest, so the client still reads the 413.
    if (total > limit) throw new HttpError(413, tooLargeMessage);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads and discards what is left of a request body, up to `limit` bytes, so the answer goes
 * out after the client (or a proxy in front) has sent it all. Answering first and closing makes
 * nginx, which sends a buffered body to the upstream, meet a reset and answer 502 instead of
 * ours. Past `limit`, or once the body has been read or given up, it returns at once.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} limit
 * @returns {Promise<void>}
 */
export function drainBody(req, limit) {
  if (req.complete || req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let total = 0;
    const done = () => {
      req.off('data', count);
      resolve();
    };
    /** @param {Buffer} chunk */
    const count = (chunk) => {
      total += chunk.length;
      if (total > limit) done();
    };
    req.on('data', count);
    req.once('end', done);
    req.once('close', done);
    req.resume();
  });
}

/**
 * Parses a JSON object body; an empty body is `undefined`, so callers decide whether it is optional.
 * @param {Buffer} buffer
 * @returns {Record<string, unknown> | undefined}
 */
export function parseJsonObject(buffer) {
  const text = buffer.toString('utf8');
  if (text.trim() === '') return undefined;
  /** @type {unknown} */
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Malformed request body: not valid JSON');
  }
  if (!isObject(value)) throw new HttpError(400, 'Malformed request body: expected a JSON object');
  return value;
}

/**
 * A JSON object: not null, not an array (as the bridge's `isObject`, bridge/protocol/safe-json.ts).
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {Reply} reply
 * @param {Record<string, string>} cors
 * @param {string} [jsonType] the Content-Type of a JSON body
 */
export function send(res, reply, cors, jsonType = 'application/json') {
  if (res.headersSent || res.destroyed) return;
  /** @type {Record<string, string | number>} */
  const headers = { ...cors, 'cache-control': 'no-store', ...reply.headers };
  let payload = '';
  if (reply.raw) {
    headers['content-type'] = reply.raw.contentType;
    payload = reply.raw.text;
  } else if (reply.body !== undefined) {
    headers['content-type'] = jsonType;
    payload = JSON.stringify(reply.body);
  }
  // 204 must not carry a Content-Length (RFC 9110 §8.6).
  if (reply.status !== 204) headers['content-length'] = Buffer.byteLength(payload);
  res.writeHead(reply.status, headers);
  res.end(payload);
}
