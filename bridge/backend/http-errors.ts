/**
 * HTTP answers that are failures, turned into the one error event shape with the code of the
 * docs/reference.md's table and the server's own `message` where it gave one.
 */
import { errorEvent, BridgeError, type ErrorCode, type ErrorEvent } from '../protocol/errors.js';
import { route, type ApiRequest, type ApiResponse } from './http.js';
import { errorMessageOf, fieldErrorsOf } from './backend-bodies.js';
import { TIMED_OUT } from './retry-policy.js';

const STATUS_TEXT: Record<number, string> = {
  400: 'bad request',
  408: 'request timeout',
  401: 'unauthorized',
  404: 'not found',
  413: 'file exceeds the maximum upload size',
  422: 'validation failed',
  429: 'too many requests',
  500: 'internal server error',
};

export function httpErrorEvent(request: Pick<ApiRequest, 'method' | 'path'>, response: ApiResponse): ErrorEvent {
  const serverMessage = errorMessageOf(response.body);
  const errors = fieldErrorsOf(response.body);
  const text =
    serverMessage || STATUS_TEXT[response.status] || (response.status >= 500 ? 'server error' : 'request failed');
  return errorEvent(
    codeForStatus(response.status),
    `[${route(request)}] ${response.status}: ${text}`,
    response.status,
    errors,
  );
}

/** Carries the server's `Retry-After`, which the outbox honours before its next attempt at a message it keeps. */
export function httpError(request: Pick<ApiRequest, 'method' | 'path'>, response: ApiResponse): BridgeError {
  return Object.assign(new BridgeError(httpErrorEvent(request, response)), {
    retryAfter: response.headers && response.headers.get('Retry-After'),
  });
}

/**
 * The contract gives 400 for several message rules (and one statement lists a too-large file
 * there, conflicting with 413). The bridge checks those rules before sending and reports them
 * with their own codes; a 400 the server still gives is `bad_request`, its message kept.
 */
export function codeForStatus(status: number): ErrorCode {
  return status >= 500 ? 'server_error' : CODE_FOR_STATUS[status] || 'bad_request';
}

/** 4xx statuses with a code of their own; any other is `bad_request`. */
const CODE_FOR_STATUS: Record<number, ErrorCode | undefined> = {
  // Retried like no answer in time (retry-policy.ts says why).
  [TIMED_OUT]: 'network_error',
  401: 'auth_failed',
  403: 'auth_failed',
  404: 'not_found',
  413: 'file_too_large',
  422: 'validation_error',
  429: 'rate_limited',
};
