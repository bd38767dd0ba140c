/**
 * Reading the backend's answers. These are checked by hand rather than with schemas: they
 * come from our own backend, are read leniently (any proxy may answer instead), and each
 * needs one or two fields, so a schema would cost bundle bytes and say nothing more.
 */
import type { FieldErrors } from '../protocol/errors.js';
import { MIN_TOKEN_LENGTH } from '../outbound/redact.js';
import { isObject } from '../protocol/safe-json.js';

/**
 * A usable auth token: a string of at least `MIN_TOKEN_LENGTH` characters (a shorter one is no
 * real token, and could not be scrubbed safely); else undefined.
 */
export const usableToken = (token: unknown): string | undefined =>
  typeof token === 'string' && token.length >= MIN_TOKEN_LENGTH ? token : undefined;

/** The `authToken` of a `GET /config` answer, when it has a usable one (`usableToken`). */
export function authTokenOf(body: unknown): string | undefined {
  return usableToken(isObject(body) ? body['authToken'] : undefined);
}

/** The ErrorResponse `message`, when the body has a non-empty one. */
export function errorMessageOf(body: unknown): string | undefined {
  const message = isObject(body) ? body['message'] : undefined;
  return typeof message === 'string' && message !== '' ? message : undefined;
}

/** The ErrorResponse `errors`, keeping only well-formed fields (`{field: [string...]}`). */
export function fieldErrorsOf(body: unknown): FieldErrors | undefined {
  const errors = isObject(body) ? body['errors'] : undefined;
  if (!isObject(errors)) return undefined;
  const result: FieldErrors = {};
  for (const [field, problems] of Object.entries(errors)) {
    if (Array.isArray(problems) && problems.every((problem) => typeof problem === 'string')) result[field] = problems;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}
