/**
 * A fake of the bridge's Environment for Node tests: real `fetch` and timers by default (so
 * tests against the reference backend use the network for real), in-memory storage that can
 * outlive a bridge (a "reload"), a switchable connectivity flag, a message source to post into,
 * and a stand-in window whose native channels record what each host received.
 */
import {
  DEFAULTS,
  type Environment,
  type HostName,
  type HostScope,
  type HttpRequest,
  type HttpResponse,
  type InboundMessage,
} from '../../bridge/index.js';
import { listeners, mapStorage } from './in-memory.js';

export interface Delivery {
  host: HostName;
  payload: unknown;
}

export interface TestEnvironment {
  env: Environment;
  /** Every payload any channel received, in order. */
  deliveries: Delivery[];
  /** Payloads decoded to objects (JSON strings parsed), for assertions. */
  messages(): Array<Record<string, unknown>>;
  /** Posts a `message` event, as the widget or another frame would. */
  post(data: unknown, origin?: string): void;
  setOnline(online: boolean): void;
  storage: Map<string, string>;
  /** Requests the bridge made through `env.fetch`. */
  requests: Array<{ url: string; method: string; headers: Record<string, string> }>;
}

export interface TestEnvironmentOptions {
  pageOrigin?: string;
  /** Storage shared with an earlier environment, to model a reload. */
  storage?: Map<string, string>;
  fetch?: (url: string, request: HttpRequest) => Promise<HttpResponse>;
  /** Which channels exist on the stand-in window. @default all five */
  channels?: HostName[];
}

export function createTestEnvironment(options: TestEnvironmentOptions = {}): TestEnvironment {
  const deliveries: Delivery[] = [];
  const requests: TestEnvironment['requests'] = [];
  const storage = options.storage ?? new Map<string, string>();
  const messageEvents = listeners<InboundMessage>();
  const connectivity = listeners<boolean>();
  let online = true;
  const realFetch =
    options.fetch ?? ((url: string, request: HttpRequest) => fetch(url, request) as Promise<HttpResponse>);

  const env: Environment = {
    fetch(url, request) {
      requests.push({ url, method: request.method, headers: { ...request.headers } });
      if (!online) return Promise.reject(new TypeError('Failed to fetch (offline)'));
      return realFetch(url, request);
    },
    now: () => Date.now(),
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    random: () => Math.random(),
    storage: mapStorage(storage),
    isOnline: () => online,
    onConnectivityChange: connectivity.subscribe,
    onMessage: messageEvents.subscribe,
    pageOrigin: options.pageOrigin ?? 'https://app.example.test',
    scope: standInWindow(options.channels ?? ['react-native', 'android', 'ios', 'flutter', 'browser'], deliveries),
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

function standInWindow(channels: HostName[], deliveries: Delivery[]): HostScope {
  const record = (host: HostName) => (payload: unknown) => void deliveries.push({ host, payload });
  const scope: HostScope = {};
  if (channels.includes('react-native')) scope['ReactNativeWebView'] = { postMessage: record('react-native') };
  if (channels.includes('android')) scope[DEFAULTS.androidChannel] = { postMessage: record('android') };
  if (channels.includes('ios'))
    scope['webkit'] = { messageHandlers: { [DEFAULTS.iosHandler]: { postMessage: record('ios') } } };
  if (channels.includes('flutter')) scope[DEFAULTS.flutterChannel] = { postMessage: record('flutter') };
  if (channels.includes('browser')) {
    const browser = record('browser');
    scope['CustomEvent'] = class {
      constructor(
        readonly type: string,
        readonly init: { detail?: unknown } = {},
      ) {}
    };
    scope['dispatchEvent'] = (event: { type: string; init: { detail?: unknown } }) => {
      if (event.type === DEFAULTS.browserEvent) browser(event.init.detail);
      return true;
    };
  }
  return scope;
}
