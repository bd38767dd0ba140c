/**
 * A doctor `Probe` answering from a table, for the unit specs of the checks: each request label
 * ("GET /config", "GET /config with a wrong token", "OPTIONS /messages", "OPTIONS /config") maps
 * to an answer or to a failure. The probe's own HTTP side is tested against a real server
 * (test/unit/tools/doctor/probe.spec.ts).
 */
import type { Exchange, Probe } from '../../tools/doctor/probe.js';

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  text?: string;
}

export const ORIGIN = 'https://app.example';

/** An answered exchange, its body parsed as the probe parses it. */
export function answered(label: string, { status, headers = {}, text = '' }: Answer): Exchange {
  let body: unknown;
  try {
    body = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { answered: true, label, status, headers: new Headers(headers), text, body };
}

export const REFUSED = 'cannot reach chat.example: connection refused: nothing listens there (ECONNREFUSED)';

export const refused = (label: string): Exchange => ({
  answered: false,
  label,
  reason: REFUSED,
  fix: 'check --base-url',
});

export function tableProbe(table: Record<string, Exchange>): Probe & { asked: string[] } {
  const asked: string[] = [];
  const look = async (label: string) => {
    asked.push(label);
    const exchange = table[label];
    if (exchange === undefined) throw new Error(`no answer in the table for ${label}`);
    return exchange;
  };
  return {
    asked,
    target: {
      baseUrl: 'https://chat.example/api',
      websiteToken: 'wt_given_token_0123456789',
      origin: ORIGIN,
      fetch: () => Promise.reject(new Error('the table probe sends nothing')),
      timeoutMs: 1_000,
    },
    preflight: (path) => look(`OPTIONS ${path}`),
    config: (token) => look(token === 'given' ? 'GET /config' : 'GET /config with a wrong token'),
    sendAll: () => undefined,
    secrets: () => [],
  };
}

/** CORS headers a correct backend sends to `ORIGIN`. */
export const CORS = {
  'access-control-allow-origin': ORIGIN,
  vary: 'Origin',
  'access-control-expose-headers': 'Retry-After',
};
