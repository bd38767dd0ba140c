/**
 * Drives the BUILT bridge (dist/esm) against the reference backend over real HTTP on 127.0.0.1.
 *
 * `useReferenceBackend()` registers the hooks of one test file: a backend of its own for the
 * file, reset before each test (faults off, data and request log cleared), and every bridge
 * created in a test destroyed after it. `suite.bridge(...)` creates a bridge in a
 * `createInMemoryEnvironment()` whose fetch is the real one, passed through a recorder that keeps
 * what actually left (method, path, headers, echo_id) and the auth tokens the backend issued.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import * as built from '../../dist/esm/index.js';
import type * as BuiltTypes from '../../dist/types/bridge/index.js';
import type {
  Bridge,
  BridgeOptions,
  ErrorEvent,
  HttpRequest,
  HttpResponse,
  OutboundMessage,
  ResponseMessage,
} from '../../dist/types/bridge/index.js';
import { startReferenceBackend } from '../../reference-backend/server.mjs';
import { storedMessages } from './page-servers.js';
import { createInMemoryEnvironment, type InMemoryEnvironment } from '../../tools/testing/in-memory-environment.js';

// dist/esm ships no declarations next to it; its types are dist/types (what package.json exports).
const { createBridge, normalizeOptions } = built as unknown as Pick<
  typeof BuiltTypes,
  'createBridge' | 'normalizeOptions'
>;

export type Backend = Awaited<ReturnType<typeof startReferenceBackend>>;
export type BackendOptions = NonNullable<Parameters<typeof startReferenceBackend>[0]>;
export type LogEntry = Backend['requests'][number];

/** Long and distinctive, so a leak into any delivery is unmistakable. */
export const WEBSITE_TOKEN = 'wt_integration_3f9a7c1e5b2d';

/** A request as it left the bridge through `env.fetch` (offline attempts never get here). */
export interface SentRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** `message.echo_id` (JSON) or `message[echo_id]` (multipart) of a POST /messages. */
  echoId: string | undefined;
  body: 'none' | 'json' | 'multipart';
  /** The HTTP status, once answered; undefined while pending or when it never was. */
  status: number | undefined;
}

export interface BridgeHarness {
  backend: Backend;
  te: InMemoryEnvironment;
  bridge: Bridge;
  /** Everything the bridge told the host since it was created (after redaction). */
  outbound: OutboundMessage[];
  sent: SentRequest[];
  /** Every authToken the backend handed this bridge in a GET /config answer. */
  issuedTokens: string[];
  /** Sends a host command and resolves with its response (rejects after `timeoutMs`). */
  send(method: string, params?: Record<string, unknown>, id?: string, timeoutMs?: number): Promise<ResponseMessage>;
  /** Resolves with the response to command `id` once it arrives. */
  response(id: string, timeoutMs?: number): Promise<ResponseMessage>;
  errors(): ErrorEvent[];
  responses(): ResponseMessage[];
  /** Waits until `predicate` holds, polling; rejects naming `what` after `timeoutMs`. */
  waitFor(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  destroy(): void;
}

export interface HarnessSetup {
  /** Bridge options over the defaults below (baseUrl and websiteToken are filled in; undefined removes one). */
  options?: { [Name in keyof BridgeOptions]?: BridgeOptions[Name] | undefined };
  /** Storage of an earlier environment, to model a reload. */
  storage?: Map<string, unknown>;
  /** The bridge's random source (the jitter of its waits); Math.random by default. */
  random?: () => number;
}

export interface BackendSuite {
  readonly backend: Backend;
  bridge(setup?: HarnessSetup): BridgeHarness;
  /** Empties the backend's request log (in place) and every live bridge's `sent` list. */
  clearRequests(): void;
  /** The API requests the backend received (preflights excluded; there are none from Node). */
  log(): LogEntry[];
  /** The messages the backend stored for the website token's contact, read with a token of our own. */
  storedMessages(): Promise<Array<{ content: string; echo_id: string | null }>>;
}

export function useReferenceBackend(backendOptions: BackendOptions = {}): BackendSuite {
  let backend: Backend | undefined;
  const live: BridgeHarness[] = [];
  const current = (): Backend => {
    if (backend === undefined) throw new Error('reference backend not started (use suite.backend inside tests)');
    return backend;
  };

  beforeAll(async () => {
    backend = await startReferenceBackend({ websiteTokens: [WEBSITE_TOKEN], ...backendOptions });
  });
  afterAll(async () => {
    await backend?.close();
  });
  beforeEach(() => {
    current().reset();
  });
  afterEach(() => {
    live.splice(0).forEach((harness) => harness.destroy());
  });

  return {
    get backend() {
      return current();
    },
    bridge(setup = {}) {
      const harness = createHarness(current(), setup);
      live.push(harness);
      return harness;
    },
    clearRequests() {
      current().requests.length = 0;
      live.forEach((harness) => (harness.sent.length = 0));
    },
    log: () => current().requests.filter((entry) => entry.method !== 'OPTIONS'),
    storedMessages: () => storedMessages(current(), WEBSITE_TOKEN),
  };
}

export function createHarness(backend: Backend, setup: HarnessSetup = {}): BridgeHarness {
  const sent: SentRequest[] = [];
  const issuedTokens: string[] = [];

  // The real fetch, observed: nothing is answered here, every request reaches the backend.
  const recordingFetch = async (url: string, request: HttpRequest): Promise<HttpResponse> => {
    const parsed = new URL(url);
    const entry: SentRequest = {
      method: request.method,
      path: parsed.pathname,
      query: Object.fromEntries(parsed.searchParams),
      headers: { ...request.headers },
      echoId: echoIdOf(request.body),
      body: request.body === undefined ? 'none' : typeof request.body === 'string' ? 'json' : 'multipart',
      status: undefined,
    };
    sent.push(entry);
    const response = await fetch(url, request);
    entry.status = response.status;
    if (parsed.pathname === '/config' && response.ok) {
      try {
        const token = ((await response.clone().json()) as { authToken?: unknown }).authToken;
        if (typeof token === 'string') issuedTokens.push(token);
      } catch {
        // Not JSON (the config-malformed fault): no token was issued.
      }
    }
    return response;
  };

  const te = createInMemoryEnvironment({
    fetch: recordingFetch,
    ...(setup.storage ? { storage: setup.storage } : {}),
    ...(setup.random ? { random: setup.random } : {}),
  });
  const raw = {
    baseUrl: backend.url,
    websiteToken: WEBSITE_TOKEN,
    host: 'android',
    // Generous: a loaded CI machine must not turn a slow answer into a network_error.
    requestTimeout: 5000,
    commandTimeout: 8000,
    retry: { limit: 2, baseDelay: 10, maxDelay: 2000 },
    ...setup.options,
  };
  const bridge = createBridge(normalizeOptions(raw, te.env.pageOrigin), te.env, { rawOptions: raw });
  const outbound: OutboundMessage[] = [];
  bridge.on((message) => outbound.push(message));

  const waitFor = (predicate: () => boolean, what: string, timeoutMs = 8000) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const check = () => {
        if (predicate()) return resolve();
        if (Date.now() - started > timeoutMs)
          return reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
        setTimeout(check, 5);
      };
      check();
    });

  const responses = () => outbound.filter((message): message is ResponseMessage => message.type === 'response');
  const response = async (id: string, timeoutMs = 8000): Promise<ResponseMessage> => {
    await waitFor(() => responses().some((message) => message.id === id), `the response to command "${id}"`, timeoutMs);
    return responses().find((message) => message.id === id) as ResponseMessage;
  };

  let nextId = 0;
  return {
    backend,
    te,
    bridge,
    outbound,
    sent,
    issuedTokens,
    send(method, params, id = `cmd-${++nextId}`, timeoutMs) {
      bridge.receive(params === undefined ? { id, method } : { id, method, params });
      return response(id, timeoutMs);
    },
    response,
    errors: () => outbound.filter((message): message is ErrorEvent => message.type === 'error'),
    responses,
    waitFor,
    destroy: () => bridge.destroy(),
  };
}

function echoIdOf(body: HttpRequest['body']): string | undefined {
  if (body === undefined) return undefined;
  if (typeof body !== 'string') {
    const value = body.get('message[echo_id]');
    return typeof value === 'string' ? value : undefined;
  }
  try {
    const echo = (JSON.parse(body) as { message?: { echo_id?: unknown } }).message?.echo_id;
    return typeof echo === 'string' ? echo : undefined;
  } catch {
    return undefined;
  }
}

/** Base64 of `size` bytes, for attachments. */
export function base64Bytes(size: number): string {
  return Buffer.alloc(size, 7).toString('base64');
}
