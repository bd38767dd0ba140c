/**
 * HTTP answers that are failures, turned into the one error event shape with the code of the
 * README's table and the server's own `message` where it gave one.
 */
import { errorEvent, BridgeError, type ErrorCode, type ErrorEvent } from './errors.js';
import { route, type ApiRequest, type ApiResponse } from './http.js';
import { errorMessageOf, fieldErrorsOf } from './responses.js';

const STATUS_TEXT: Record<number, string> = {
  400: 'bad request',
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
  const text = serverMessage ?? STATUS_TEXT[response.status] ?? (response.status >= 500 ? 'server error' : 'request failed');
  return errorEvent(codeForStatus(response.status, serverMessage), `[${route(request)}] ${response.status}: ${text}`, {
    status: response.status,
    errors,
  });
}

export function httpError(request: Pick<ApiRequest, 'method' | 'path'>, response: ApiResponse): BridgeError {
  return new BridgeError(httpErrorEvent(request, response));
}

export function codeForStatus(status: number, serverMessage?: string): ErrorCode {
  if (status >= 500) return 'server_error';
  switch (status) {
    case 400:
      return codeFor400(serverMessage ?? '');
    case 401:
    case 403:
      return 'auth_failed';
    case 404:
      return 'not_found';
    case 413:
      return 'file_too_large';
    case 422:
      return 'validation_error';
    case 429:
      return 'rate_limited';
    default:
      return 'bad_request';
  }
}

/**
 * The contract gives one status, 400, for several message rules, and one statement lists a
 * too-large file under 400 as well (conflicting with 413). The bridge checks these rules before
 * sending, so a 400 from the server is rare; when its message names the rule, the host gets
 * the specific code, and `bad_request` otherwise.
 */
function codeFor400(message: string): ErrorCode {
  if (/too many files|at most 5/i.test(message)) return 'too_many_files';
  if (/unsupported|mime|file type/i.test(message)) return 'unsupported_file_type';
  if (/too large|exceeds|maximum upload size/i.test(message)) return 'file_too_large';
  if (/content/i.test(message)) return 'empty_message';
  return 'bad_request';
}
