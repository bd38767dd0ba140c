/**
 * The one in-memory Environment, for the replay and the Node tests: storage over a Map that can
 * outlive a bridge (a "reload"), a switchable connectivity flag, a message source to post into,
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
  type KeyValueStorage,
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
  storage: Map<string, string>;
  /** Requests the bridge made through `env.fetch`. */
  requests: Array<{ url: string; method: string; headers: Record<string, string> }>;
}

export interface InMemoryEnvironmentOptions {
  /** @default "https://app.example.test" */
  pageOrigin?: string;
  /** Storage shared with an earlier environment, to model a reload. */
  storage?: Map<string, string>;
  /** @default the global fetch */
  fetch?: (url: string, request: HttpRequest) => Promise<HttpResponse>;
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
  const storage = options.storage ?? new Map<string, string>();
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
    ...(options.clock ?? realClock),
    random: options.random ?? (() => Math.random()),
    storage: mapStorage(storage),
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
    messages: () =>
      deliveries.map(
        ({ payload }) => (typeof payload === 'string' ? JSON.parse(payload) : payload) as Record<string, unknown>,
      ),
    post(data, origin = env.pageOrigin) {
      messageEvents.fire({ data, origin });
    },
    setOnline(value) {
      online = value;
      connectivity.fire(value);
    },
  };
}

function mapStorage(map: Map<string, string>): KeyValueStorage {
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
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
