/**
 * One request to the backend: CORS-safe by construction, locked to the API origin, with a
 * timeout on every attempt and 429 retries on the bridge's clock.
 *
 * CORS-safe means the only headers ever set are `Content-Type` and `Authorization` (the two
 * the contract's `Access-Control-Allow-Headers` admits) and the methods are among the
 * contract's `Access-Control-Allow-Methods`; a self-hosted backend configured by the contract
 * therefore never refuses a preflight. A profile may carry the auth token in its own header
 * (`sign`: Chatwoot's `X-Auth-Token`, whose widget API is same-origin by design, docs/chatwoot.md).
 *
 * createHttp runs a few lines past 80: one closure over the requests in flight, which `destroy`
 * aborts, and the 429 waits that each attempt reads.
 */
import type { Environment, HttpRequest, ProgressListener } from '../environment.js';
import { bridgeError } from '../protocol/errors.js';
import type { ResolvedOptions } from '../options.js';
import { parseRetryAfter, retryDelay } from './retry-timing.js';
import { httpErrorEvent, route, type ApiResponse } from './http-errors.js';
import { parseJson } from '../protocol/safe-json.js';

export type { ApiResponse };

type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface ApiRequest {
  method: HttpMethod;
  /** Relative to `baseUrl`, starting with "/". */
  path: string;
  query?: Record<string, string>;
  json?: object;
  form?: FormData;
  /** Aborted when the command that made the request was answered. */
  signal?: AbortSignal | undefined;
  /** Told a `form` upload's progress: the request then goes through `upload` where the environment has it. */
  onProgress?: ProgressListener | undefined;
}

/** `authToken`: sent as the profile signs it (`Authorization: Bearer`, by default), when given. */
export type Http = (request: ApiRequest, authToken?: string) => Promise<ApiResponse>;

/** How a request carries the auth token. */
export type Sign = (headers: Record<string, string>, token: string) => void;

/** The contract's: `Authorization: Bearer`, a header its CORS list admits. */
export const bearer: Sign = (headers, token) => void (headers['Authorization'] = `Bearer ${token}`);

type HttpOptions = Pick<ResolvedOptions, 'baseUrl' | 'apiOrigin' | 'requestTimeout' | 'retry'>;
type HttpEnvironment = Pick<Environment, 'fetch' | 'upload' | 'setTimeout' | 'clearTimeout' | 'random' | 'now'>;

/**
 * @param inFlight the controllers of requests under way, which `destroy` aborts.
 * @param sign how the auth token goes (the backend profile's)
 */
export function createHttp(
  env: HttpEnvironment,
  options: HttpOptions,
  inFlight: Set<AbortController>,
  sign = bearer,
): Http {
  const attempt: Http = async (request, authToken) => {
    const url = urlFor(request, options);
    const { form, json, signal, onProgress } = request;
    const controller = new AbortController();
    // A redirect could carry the auth token to another origin in WebViews that predate the Fetch
    // rule dropping it; the API never needs one, so a redirect fails as a network error.
    const init: HttpRequest = { method: request.method, headers: {}, redirect: 'error', signal: controller.signal };
    if (form) {
      // The browser writes the multipart Content-Type with its boundary itself.
      init.body = form;
    } else if (json) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(json);
    }
    if (authToken) sign(init.headers, authToken);

    const stop = () => controller.abort();
    inFlight.add(controller);
    if (signal) signal.addEventListener('abort', stop);
    let timedOut = false;
    let timer: unknown;
    // Restarted by upload progress: a big photo on a slow link may take longer than the timeout
    // to go out, and is not stalled while its bytes keep moving.
    const arm = () => {
      env.clearTimeout(timer);
      timer = env.setTimeout(() => {
        timedOut = true;
        stop();
      }, options.requestTimeout);
    };
    arm();
    // Raced, not only signalled: a WebView's fetch may ignore its AbortSignal and never settle.
    const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', reject));
    try {
      if (signal && signal.aborted) throw 0;
      // Only uploads take the XHR path: fetch keeps the round trip of a text message short.
      const sent =
        form && onProgress && env.upload
          ? env.upload(url, init, (sentBytes, totalBytes) => {
              arm();
              onProgress(sentBytes, totalBytes);
            })
          : env.fetch(url, init);
      const response = await Promise.race([sent, aborted]);
      const text = await Promise.race([response.text(), aborted]);
      // An empty body is not JSON either.
      const parsed = parseJson(text);
      return {
        status: response.status,
        body: parsed.ok ? parsed.value : undefined,
        text,
        headers: response.headers,
      };
    } catch {
      throw bridgeError(
        'network_error',
        `[${route(request)}] ${
          timedOut ? `no answer within ${options.requestTimeout} ms` : 'network error: offline, unreachable or no CORS'
        }`,
      );
    } finally {
      env.clearTimeout(timer);
      inFlight.delete(controller);
      if (signal) signal.removeEventListener('abort', stop);
    }
  };

  return async (request, authToken) => {
    for (let retry = 1; ; retry++) {
      const response = await attempt(request, authToken);
      if (response.status !== 429) return response;
      const now = env.now();
      const asked = parseRetryAfter(response.headers.get('Retry-After'), now);
      const decision = retryDelay(retry, asked, options.retry, env.random());
      // The message of any other 429 (the server's own, or "too many requests"), why no retry, and
      // when the server said one would be welcome.
      if (typeof decision === 'string') {
        const message = `${httpErrorEvent(request, response).message}; ${decision}`;
        throw bridgeError('rate_limited', message, 429, undefined, asked === undefined ? asked : now + asked);
      }
      // A command answered meanwhile aborted the signal: the next attempt refuses to start, and
      // its error goes nowhere (the command runner drops what comes after the answer).
      await new Promise<void>((resolve) => env.setTimeout(resolve, decision));
    }
  };
}

function urlFor(request: ApiRequest, options: HttpOptions): string {
  const url = new URL(options.baseUrl + request.path);
  for (const [name, value] of Object.entries(request.query || {})) url.searchParams.set(name, value);
  // Paths are the bridge's own constants, but the Authorization header must never leave for
  // another origin, so the invariant is checked rather than assumed.
  if (url.origin !== options.apiOrigin) throw new Error('request outside the API origin');
  return url.href;
}
