/**
 * The widget's `error` event. Its payloads in the wild are often empty (`{}` or a bare
 * event name), so the host gets a message that says what to check rather than nothing.
 */
import { errorEvent, type ErrorEvent } from '../outbound/errors.js';

export function widgetErrorEvent(data: Record<string, unknown>): ErrorEvent {
  const detail = firstText(
    data['message'],
    data['error'],
    ((data['error'] || {}) as { message?: unknown }).message,
    data['reason'],
  );
  return errorEvent(
    'widget_error',
    detail !== undefined
      ? `[widget] reported an error: ${detail}`
      : '[widget] reported an error without details: check baseUrl and that the widget inbox is set up',
  );
}

function firstText(...candidates: unknown[]): string | undefined {
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && candidate.trim() !== '')
      return candidate.length > 500 ? `${candidate.slice(0, 500)}…` : candidate;
  }
  return undefined;
}
