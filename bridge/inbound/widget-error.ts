/**
 * The widget's `error` event. Chatwoot's widget sends `{event: "error", errorType, data: {message}}`
 * (its contacts store: `SET_USER_ERROR` with the server's reason under `data`); other payloads in
 * the wild are often empty (`{}` or a bare event name), so the host gets the type and the reason
 * where there are any, and a message that says what to check where there are none.
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
  const what = type !== undefined ? `error ${type.slice(0, 64)}` : 'reported an error';
  const ending =
    detail !== undefined ? `: ${detail}` : ' without details: check baseUrl and that the widget inbox is set up';
  return errorEvent('widget_error', `[widget] ${what}${ending}`);
}

function firstText(...candidates: unknown[]): string | undefined {
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && candidate.trim() !== '')
      return candidate.length > 500 ? `${candidate.slice(0, 500)}…` : candidate;
  }
  return undefined;
}
