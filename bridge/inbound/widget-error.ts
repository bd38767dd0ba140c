/**
 * The widget's `error` event. Chatwoot's widget sends `{event: "error", errorType, data: {message}}`
 * (its contacts store: `SET_USER_ERROR` with the server's reason under `data`); other payloads in
 * the wild are often empty (`{}` or a bare event name), so the host gets the type and the reason
 * where there are any, and says there were none otherwise.
 */
import { errorEvent, type ErrorEvent } from '../protocol/errors.js';

export function widgetErrorEvent(data: Record<string, unknown>): ErrorEvent {
  const nested = (data['data'] || {}) as Record<string, unknown>;
  const detail = firstText(
    data['message'],
    data['error'],
    ((data['error'] || {}) as { message?: unknown }).message,
    data['reason'],
    nested['message'],
    nested['error'],
    data['data'],
  );
  const type = firstText(data['errorType']);
  const what = type ? ` ${type.slice(0, 64)}` : '';
  return errorEvent('widget_error', `[widget] error${what}${detail ? `: ${detail}` : ' without details'}`);
}

/** The first candidate that is a string with more than whitespace (cut at 500 characters), else undefined. */
function firstText(...candidates: unknown[]): string | undefined {
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && candidate.trim() !== '')
      return candidate.length > 500 ? `${candidate.slice(0, 500)}…` : candidate;
  }
  return undefined;
}
