/**
 * Everything the bridge needs from the world around it, behind one small interface.
 *
 * `install` fills it from the real WebView (`browserEnvironment`); the replay fills it with a
 * virtual clock and scripted HTTP; unit tests fill it with fakes. Nothing else in `bridge/`
 * touches `window`, `fetch`, timers or storage directly, so the very same code runs in all three.
 */
import { browserLocks } from './browser-locks.js';
import { browserRecords } from './browser-storage.js';
import { xhrUpload } from './xhr-upload.js';

/** The part of a fetch `Response` the bridge reads. Kept small so scripted answers are easy. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface HttpRequest {
  method: string;
  redirect?: 'error';
  headers: Record<string, string>;
  body?: string | FormData;
  signal?: AbortSignal;
}

/** Told as a request body goes out: bytes sent so far, of all of them. */
export type ProgressListener = (sentBytes: number, totalBytes: number) => void;

/** A request whose body's upload progress is reported as it goes out. */
export type Upload = (url: string, request: HttpRequest, onProgress: ProgressListener) => Promise<HttpResponse>;

export type TimerHandle = unknown;

/** Timers alone, for the parts that need nothing else from the environment. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/**
 * Where outbox records survive a reload, one record per key, shared by every WebView of the
 * origin: IndexedDB in a browser (binary attachments as ArrayBuffers), localStorage where
 * IndexedDB cannot be opened. Every method may reject (quota, storage disabled, private mode, a
 * deadline passed), and none waits without one.
 */
export interface RecordStore {
  /** The keys that start with `prefix`, in ascending order. */
  keys(prefix: string): Promise<string[]>;
  /** The value under `key`, or undefined. */
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<void>;
  remove(key: string): Promise<void>;
  /**
   * Calls back each time the store finds that what it kept is gone (site data cleared, the
   * database deleted, storage evicted): at start-up where it can tell, or when a live page opens it
   * again. Stores that cannot tell leave it out.
   */
  onWiped?(listener: () => void): void;
}

/** Exclusive locks shared by every WebView of the origin (the Web Locks API, or a lease in storage). */
export interface Locks {
  /**
   * Runs `work` once the lock `name` is held, and releases it when `work` settles. `only`: no other
   * WebView ever asks for `name` (a page's own lock), so a lease needs no pause to settle a race.
   */
  request<T>(name: string, work: () => Promise<T>, only?: boolean): Promise<T>;
  /** The names of the locks held now, by any WebView. */
  held(): Promise<string[]>;
  /** Whether a request for the lock `name` waits (where that can be known): its holder then lets go soon. */
  waiting?(name: string): Promise<boolean>;
  /** Calls back when another WebView of the app may have started or gone (where that can be known). Returns the unsubscribe. */
  onChange?(listener: () => void): () => void;
}

/** A `message` event as the bridge sees it: the posted data and the sender's origin. */
export interface InboundMessage {
  data: unknown;
  origin: string;
}

export interface Environment {
  fetch(url: string, request: HttpRequest): Promise<HttpResponse>;
  /**
   * A request whose upload progress is reported, for attachments (fetch reports none in
   * WebViews). Without it, uploads go through `fetch`, with no progress.
   */
  upload?: Upload | undefined;
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /** A number in [0, 1). Seeded in replays so jitter is reproducible. */
  random(): number;
  /** Where the outbox survives a reload; undefined when the WebView has no usable storage. */
  records?: RecordStore | undefined;
  /** Locks across WebViews; undefined where there is nothing to share them with. */
  locks?: Locks | undefined;
  /** Calls back when the page becomes visible again. Returns the unsubscribe. */
  onVisible?(listener: () => void): () => void;
  isOnline(): boolean;
  /** Calls back on the window's `online` / `offline` events. Returns the unsubscribe. */
  onConnectivityChange(listener: (online: boolean) => void): () => void;
  /** Calls back for every `message` event on window and document. Returns the unsubscribe. */
  onMessage(listener: (message: InboundMessage) => void): () => void;
  /** The page's own origin, allowed to post by default. */
  pageOrigin: string;
  /** The global object in which host adapters look for their native channel. */
  scope: HostScope;
}

/** The window, as far as host adapters are concerned: they look their channel up by name. */
export type HostScope = Record<string, unknown>;

/** Timers that `destroy` can clear all at once, so a destroyed bridge leaves nothing running. */
export function trackedTimers(env: Environment): Timers & { clearAll(): void } {
  const live = new Set<TimerHandle>();
  return {
    setTimeout(callback, ms) {
      const handle = env.setTimeout(() => {
        live.delete(handle);
        callback();
      }, ms);
      live.add(handle);
      return handle;
    },
    clearTimeout(handle) {
      live.delete(handle);
      env.clearTimeout(handle);
    },
    clearAll() {
      for (const handle of live) env.clearTimeout(handle);
      live.clear();
    },
  };
}

/** Fills the environment from a real browser window (the WebView). */
export function browserEnvironment(win: Window & typeof globalThis): Environment {
  let storage: Storage | undefined | null = null;
  const lazyStorage = () => (storage === null ? (storage = usableStorage(win)) : storage);
  return {
    records: browserRecords(win, lazyStorage),
    locks: browserLocks(win, lazyStorage),
    onVisible(listener) {
      const visible = () => win.document.visibilityState === 'visible' && listener();
      win.document.addEventListener('visibilitychange', visible);
      return () => win.document.removeEventListener('visibilitychange', visible);
    },
    // Bound: some WebViews throw "Illegal invocation" for a detached fetch.
    fetch: (url, request) => win.fetch(url, request),
    upload: xhrUpload(win),
    now: () => Date.now(),
    setTimeout: (callback, ms) => win.setTimeout(callback, ms),
    clearTimeout: (handle) => win.clearTimeout(handle as number),
    random: () => Math.random(),
    isOnline: () => win.navigator.onLine !== false,
    onConnectivityChange(listener) {
      const online = () => listener(true);
      const offline = () => listener(false);
      win.addEventListener('online', online);
      win.addEventListener('offline', offline);
      return () => {
        win.removeEventListener('online', online);
        win.removeEventListener('offline', offline);
      };
    },
    onMessage(listener) {
      // react-native-webview dispatches host messages on `document` on Android and on
      // `window` on iOS; a bubbling event may pass both, so each event is handled once.
      const seen = new WeakSet<Event>();
      const handle = (event: Event) => {
        if (seen.has(event)) return;
        seen.add(event);
        listener(inboundMessage(event));
      };
      win.addEventListener('message', handle);
      win.document.addEventListener('message', handle);
      return () => {
        win.removeEventListener('message', handle);
        win.document.removeEventListener('message', handle);
      };
    },
    pageOrigin: win.location.origin,
    scope: win as unknown as HostScope,
  };
}

/** A window or document `message` event as the bridge sees it. */
export function inboundMessage(event: Event): InboundMessage {
  const message = event as MessageEvent;
  return { data: message.data, origin: typeof message.origin === 'string' ? message.origin : '' };
}

/** Reading `localStorage` throws in some sandboxed WebViews; writes over quota are handled by the outbox. */
function usableStorage(win: Window): Storage | undefined {
  try {
    return win.localStorage || undefined;
  } catch {
    return undefined;
  }
}
