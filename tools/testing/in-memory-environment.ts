/**
 * The one in-memory Environment, for the replay and the Node tests: outbox records over a Map
 * that can outlive a bridge (a "reload") and locks shared by every environment given that Map (a
 * second WebView of the app), a switchable connectivity flag, page visibility, a message source to post into,
 * and a plain-object window holding the stand-in channels (stand-in-channels.ts), whose
 * deliveries are kept in order. Fetch, clock and randomness are the caller's choice: by default
 * the real ones (tests against a real backend use the network for real); the replay gives
 * scripted HTTP, the virtual clock and a seeded generator.
 */
import {
  HOST_NAMES,
  DEFAULTS,
  type ChannelNames,
  type Environment,
  type HostName,
  type HostScope,
  type HttpRequest,
  type HttpResponse,
  type InboundMessage,
  type Locks,
  type RecordStore,
  type Upload,
} from '../../bridge/index.js';
import { installStandIns } from './stand-in-channels.js';

interface Delivery {
  host: HostName;
  payload: unknown;
}

export interface InMemoryEnvironment {
  env: Environment;
  /** Every payload any channel received, in order. */
  deliveries: Delivery[];
  /** Payloads decoded to objects (JSON strings parsed), for assertions. */
  messages(): Array<Record<string, unknown>>;
  /** Posts a `message` event, as the widget or another frame would. */
  post(data: unknown, origin?: string): void;
  /** Switches connectivity and fires the `online` / `offline` event. */
  setOnline(online: boolean): void;
  /** Fires the page's `visibilitychange` to visible. */
  setVisible(): void;
  /** The outbox records, shared with any environment given the same Map. */
  storage: Map<string, unknown>;
  /** Requests the bridge made through `env.fetch` and `env.upload`. */
  requests: Array<{ url: string; method: string; headers: Record<string, string> }>;
}

export interface InMemoryEnvironmentOptions {
  /** @default "https://app.example.test" */
  pageOrigin?: string;
  /** Records (and locks) shared with another environment, to model a reload or a second WebView. */
  storage?: Map<string, unknown>;
  /** @default the global fetch */
  fetch?: (url: string, request: HttpRequest) => Promise<HttpResponse>;
  /**
   * The upload transport (XMLHttpRequest in a WebView) for attachments, which reports progress.
   * @default none: uploads go through `fetch`, without progress, as in the replay
   */
  upload?: Upload;
  /**
   * While offline, a request fails as in an offline WebView before `fetch` sees it. Off for a
   * `fetch` that models the network itself (the replay writes offline requests out).
   * @default true
   */
  failOffline?: boolean;
  /** @default real time and timers */
  clock?: Pick<Environment, 'now' | 'setTimeout' | 'clearTimeout'>;
  /** @default Math.random */
  random?: () => number;
  /** Which channels exist on the stand-in window. @default all five */
  channels?: readonly HostName[];
  /** Where the stand-ins are put. @default DEFAULTS */
  names?: ChannelNames;
  /** Told each delivery as it happens (the replay writes its output lines from here). */
  onDelivery?: (delivery: Delivery) => void;
}

const realClock: Pick<Environment, 'now' | 'setTimeout' | 'clearTimeout'> = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createInMemoryEnvironment(options: InMemoryEnvironmentOptions = {}): InMemoryEnvironment {
  const deliveries: Delivery[] = [];
  const requests: InMemoryEnvironment['requests'] = [];
  const storage = options.storage ?? new Map<string, unknown>();
  const visibility = listeners<void>();
  const messageEvents = listeners<InboundMessage>();
  const connectivity = listeners<boolean>();
  let online = true;
  const fetchThrough =
    options.fetch ?? ((url: string, request: HttpRequest) => fetch(url, request) as Promise<HttpResponse>);
  const failOffline = options.failOffline ?? true;
  const scope: HostScope = {};
  installStandIns(
    scope,
    options.channels ?? HOST_NAMES,
    (host, payload) => {
      deliveries.push({ host, payload });
      options.onDelivery?.({ host, payload });
    },
    options.names ?? DEFAULTS,
  );

  const env: Environment = {
    fetch(url, request) {
      requests.push({ url, method: request.method, headers: { ...request.headers } });
      if (!online && failOffline) return Promise.reject(new TypeError('Failed to fetch (offline)'));
      return fetchThrough(url, request);
    },
    upload:
      options.upload &&
      ((url, request, onProgress) => {
        requests.push({ url, method: request.method, headers: { ...request.headers } });
        if (!online && failOffline) return Promise.reject(new TypeError('Failed to upload (offline)'));
        return (options.upload as Upload)(url, request, onProgress);
      }),
    ...(options.clock ?? realClock),
    random: options.random ?? (() => Math.random()),
    records: mapRecords(storage),
    locks: memoryLocks(storage),
    onVisible: (listener) => visibility.subscribe(() => listener()),
    isOnline: () => online,
    onConnectivityChange: connectivity.subscribe,
    onMessage: messageEvents.subscribe,
    pageOrigin: options.pageOrigin ?? 'https://app.example.test',
    scope,
  };

  return {
    env,
    deliveries,
    requests,
    storage,
    // A payload may carry what one frame delivered, as an array: each message in turn.
    messages: () =>
      deliveries.flatMap(({ payload }): Array<Record<string, unknown>> => {
        const value: unknown = typeof payload === 'string' ? JSON.parse(payload) : payload;
        return (Array.isArray(value) ? value : [value]) as Array<Record<string, unknown>>;
      }),
    post(data, origin = env.pageOrigin) {
      messageEvents.fire({ data, origin });
    },
    setVisible: () => visibility.fire(),
    setOnline(value) {
      online = value;
      connectivity.fire(value);
    },
  };
}

/** Records as IndexedDB keeps them: structured clones (ArrayBuffers stay binary), keys in order. */
export function mapRecords(map: Map<string, unknown>): RecordStore {
  return {
    keys: async (prefix) => [...map.keys()].filter((key) => key.startsWith(prefix)).sort(),
    async all(prefix) {
      const keys = await this.keys(prefix);
      return [keys, keys.map((key) => structuredClone(map.get(key)))];
    },
    put: async (key, value) => void map.set(key, structuredClone(value)),
    remove: async (key) => void map.delete(key),
  };
}

const sharedLocks = new WeakMap<object, Locks>();

/** Locks as the Web Locks API gives them, shared by everything that passes the same `scope` object. */
export function memoryLocks(scope: object = {}): Locks {
  const existing = sharedLocks.get(scope);
  if (existing) return existing;
  const queues = new Map<string, Promise<unknown>>();
  const held = new Map<string, number>();
  const locks: Locks = {
    request(name, work) {
      const run = (queues.get(name) ?? Promise.resolve()).then(async () => {
        held.set(name, (held.get(name) ?? 0) + 1);
        try {
          return await work();
        } finally {
          held.set(name, (held.get(name) ?? 1) - 1);
          if (held.get(name) === 0) held.delete(name);
        }
      });
      queues.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
    held: async () => [...held.keys()],
  };
  sharedLocks.set(scope, locks);
  return locks;
}

/** A listener list: `subscribe` is the Environment's side, `fire` the driver's. */
function listeners<T>() {
  const set = new Set<(value: T) => void>();
  return {
    subscribe(listener: (value: T) => void) {
      set.add(listener);
      return () => void set.delete(listener);
    },
    fire: (value: T) => set.forEach((listener) => listener(value)),
  };
}
