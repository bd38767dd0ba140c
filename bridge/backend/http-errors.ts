/**
 * HTTP answers that are failures, turned into the one error event shape with the code of the
 * docs/reference.md's table and the server's own `message` where it gave one.
 */
import { errorEvent, BridgeError, type BridgeCode, type ErrorEvent } from '../protocol/errors.js';
import { errorMessageOf, fieldErrorsOf } from './backend-bodies.js';

/**
 * The statuses with a code or a text of their own (other 5xx are alike, below), and the text
 * said when the server gives no message.
 * The contract gives 400 for several message rules (and one statement lists a too-large file
 * there, conflicting with 413). The bridge checks those rules before sending and reports them
 * with their own codes; a 400 the server still gives is `bad_request`, its message kept.
 */
const STATUSES: Record<number, [code: BridgeCode, text: string] | undefined> = {
  400: ['bad_request', 'bad request'],
  401: ['auth_failed', 'unauthorized'],
  403: ['auth_failed', 'request failed'],
  404: ['not_found', 'not found'],
  // The server's timeout, retried like no answer in time (retry-policy.ts says why). A literal key:
  // the bundle keeps a computed one's brackets.
  408: ['network_error', 'request timeout'],
  413: ['file_too_large', 'file too large'],
  422: ['validation_error', 'validation failed'],
  429: ['rate_limited', 'too many requests'],
};

/** The code and the text of a status: any other 5xx is a `server_error`, any other status a `bad_request`. */
const describeStatus = (status: number): [code: BridgeCode, text: string] =>
  STATUSES[status] || (status >= 500 ? ['server_error', 'server error'] : ['bad_request', 'request failed']);

/** Where a request went: its route is all a failure's message says of it. */
interface Route {
  method: string;
  path: string;
}

/** An HTTP answer as the bridge reads it (http.ts makes it; here, a failed one becomes an error). */
export interface ApiResponse {
  status: number;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  body: unknown;
  text: string;
  headers: { get(name: string): string | null };
}

/** Where a message says the failure happened: `GET /config`. */
export function route(request: Route): string {
  return `${request.method} ${request.path}`;
}

/** @param code a profile's own code for this answer (chatwoot-profile.ts), else the status's */
export function httpErrorEvent(request: Route, response: ApiResponse, code?: BridgeCode): ErrorEvent {
  const { status, body } = response;
  const [byStatus, text] = describeStatus(status);
  return errorEvent(
    code || byStatus,
    `[${route(request)}] ${status}: ${errorMessageOf(body) || text}`,
    status,
    fieldErrorsOf(body),
  );
}

/** Carries the server's `Retry-After`, which the outbox honours before its next attempt at a message it keeps. */
export function httpError(request: Route, response: ApiResponse, code?: BridgeCode): BridgeError {
  return Object.assign(new BridgeError(httpErrorEvent(request, response, code)), {
    retryAfter: response.headers.get('Retry-After'),
  });
}

export const codeForStatus = (status: number): BridgeCode => describeStatus(status)[0];
