/**
 * The doctor's HTTP side: the requests a WebView would send, each made once and shared by the
 * checks that read it, with a timeout on every request and failures turned into a reason a
 * person can act on instead of a thrown error.
 */
import { parseJson } from '../../bridge/index.js';

/** The fetch the doctor calls: the global one in the CLI, any compatible one in tests. */
type DoctorFetch = (url: string, init: RequestInit) => Promise<Response>;

export interface DoctorTarget {
  /** The API root without a trailing slash, as the bridge's normalized `baseUrl`. */
  baseUrl: string;
  websiteToken: string;
  /** The page origin the WebView sends in `Origin`. */
  origin: string;
  fetch: DoctorFetch;
  /** Milliseconds to wait for each answer, body included. */
  timeoutMs: number;
  /**
   * The bridge's `maxFileSize` as the app sets it, the file the upload check sends (upload-checks.ts);
   * when left out, the bridge's default for the backend (5 MiB on the contract, 40 MiB on Chatwoot).
   */
  maxFileSize?: number;
}

/** An HTTP answer, or why there was none. */
export type Exchange =
  | { answered: true; label: string; status: number; headers: Headers; text: string; body: unknown }
  | { answered: false; label: string; reason: string; fix: string };

export interface Probe {
  readonly target: DoctorTarget;
  /** `OPTIONS path` as a browser's preflight for `method` with `requestHeaders`. */
  preflight(path: string, method: string, requestHeaders?: string): Promise<Exchange>;
  /**
   * `GET /config?website_token=...` with `Origin`, as the bridge sends it: with the given token,
   * or with a made-up one no inbox has, to see how the backend refuses it.
   */
  config(token: 'given' | 'wrong'): Promise<Exchange>;
  /** Sends every request the checks read, at once, so that no answer waits for another's timeout. */
  sendAll(): void;
  /** Every token value met so far (sent or received), for the report to scrub. */
  secrets(): string[];
}

export function createProbe(target: DoctorTarget): Probe {
  const cache = new Map<string, Promise<Exchange>>();
  const secrets = new Set<string>([target.websiteToken]);
  const wrongToken = `doctor-invalid-${globalThis.crypto.randomUUID()}`;

  const exchange = (label: string, url: string, init: RequestInit): Promise<Exchange> => {
    let pending = cache.get(label);
    if (pending === undefined) {
      pending = send(target, label, url, init).then((result) => {
        if (result.answered) collectTokens(result.body, secrets);
        return result;
      });
      cache.set(label, pending);
    }
    return pending;
  };

  const probe: Probe = {
    target,
    preflight(path, method, requestHeaders) {
      const headers: Record<string, string> = { Origin: target.origin, 'Access-Control-Request-Method': method };
      if (requestHeaders !== undefined) headers['Access-Control-Request-Headers'] = requestHeaders;
      return exchange(`OPTIONS ${path}`, target.baseUrl + path, { method: 'OPTIONS', headers });
    },
    config(token) {
      const url = new URL(`${target.baseUrl}/config`);
      url.searchParams.set('website_token', token === 'given' ? target.websiteToken : wrongToken);
      // The label names the request without the token: labels end up in the report.
      const label = token === 'given' ? 'GET /config' : 'GET /config with a wrong token';
      return exchange(label, url.href, { method: 'GET', headers: { Origin: target.origin } });
    },
    sendAll() {
      void probe.config('given');
      void probe.config('wrong');
      void messagesPreflight(probe);
      void configPreflight(probe);
    },
    secrets: () => [...secrets],
  };
  return probe;
}

/** The preflight a WebView sends before every authorized request the bridge makes. */
export const messagesPreflight = (probe: Probe) => probe.preflight('/messages', 'POST', 'content-type, authorization');

/**
 * The bridge's `GET /config` carries no custom header, so it is a simple request and never
 * preflighted; the contract still asks for the CORS headers on every endpoint, and a WebView or
 * proxy that adds a header would preflight it.
 */
export const configPreflight = (probe: Probe) => probe.preflight('/config', 'GET');

/** One request with the target's timeout, its failure turned into a reason and a fix. */
export async function send(target: DoctorTarget, label: string, url: string, init: RequestInit): Promise<Exchange> {
  const signal = AbortSignal.timeout(target.timeoutMs);
  try {
    const response = await target.fetch(url, { ...init, signal, redirect: 'manual' });
    const text = await response.text();
    return { answered: true, label, status: response.status, headers: response.headers, text, body: parseBody(text) };
  } catch (error) {
    return { answered: false, label, ...failureReason(error, signal, target) };
  }
}

/** A JSON body as the checks read it; anything else is undefined. */
export function parseBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  const parsed = parseJson(text);
  return parsed.ok ? parsed.value : undefined;
}

/** Auth tokens a config answer hands out must never be printed, whatever check shows the body. */
function collectTokens(body: unknown, into: Set<string>): void {
  if (typeof body !== 'object' || body === null) return;
  const token = (body as Record<string, unknown>)['authToken'];
  if (typeof token === 'string' && token !== '') into.add(token);
}

const REACH_FIX =
  'check --base-url (the API root the app passes as baseUrl) and that the backend runs and is reachable from here';

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing listens there',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'host lookup failed (DNS)',
  ECONNRESET: 'connection reset by the server',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'the server closed the connection',
};

function failureReason(error: unknown, signal: AbortSignal, target: DoctorTarget): { reason: string; fix: string } {
  if (signal.aborted) {
    return {
      reason: `no answer within ${target.timeoutMs} ms: the backend accepted the connection but did not respond`,
      fix: 'check the backend and any proxy in front of it (logs, upstream health); if it is only slow, raise --timeout',
    };
  }
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  if (code !== undefined && NETWORK_CODES[code] !== undefined) {
    return { reason: `cannot reach ${new URL(target.baseUrl).host}: ${NETWORK_CODES[code]} (${code})`, fix: REACH_FIX };
  }
  if (code !== undefined && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) {
    return {
      reason: `TLS certificate problem (${code}): a WebView refuses this certificate too`,
      fix: 'serve a certificate the devices trust, with its full chain (a WebView gives no way to accept a self-signed one)',
    };
  }
  const detail =
    typeof cause?.message === 'string' ? cause.message : error instanceof Error ? error.message : String(error);
  return { reason: `no HTTP answer: ${detail}${code === undefined ? '' : ` (${code})`}`, fix: REACH_FIX };
}
