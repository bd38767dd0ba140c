/**
 * Everything the bridge needs from the world around it, behind one small interface.
 *
 * `install` fills it from the real WebView (browser-environment.ts); the replay fills it with a
 * virtual clock and scripted HTTP; unit tests fill it with fakes. Nothing else in `bridge/`
 * touches `window`, `fetch`, timers, storage or `Math.random` directly, so the very same code
 * runs in all three.
 */

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
 * origin: IndexedDB in a browser (binary attachments as ArrayBuffers). Every method may reject
 * (quota, storage disabled, IndexedDB that cannot be opened, a deadline passed), and none waits
 * without one.
 */
export interface RecordStore {
  /** The keys that start with `prefix`, in ascending order. */
  keys(prefix: string): Promise<string[]>;
  /**
   * The records whose keys start with `prefix`, read at once (one IndexedDB transaction): their
   * keys in ascending order and their values in the same order. For thousands of records, where a
   * read per key would take seconds.
   */
  all(prefix: string): Promise<[keys: string[], values: unknown[]]>;
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
  /** The wall clock (Date.now): what the host is told, and the order of stored records. */
  now(): number;
  /**
   * A clock that setting the device's clock does not move (performance.now()), for every wait; it
   * starts with the page. Without it (a replay's virtual clock, which nothing sets), `now`.
   */
  elapsed?(): number;
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

/** Does nothing: the release of what was never held, the removal of a listener never added, a failure let go. */
export const noop = () => {};

/**
 * Calls a web API's method taken before the page's scripts ran with a `this` of its own
 * (browser-environment.ts, xhr-upload.ts, the channels in outbound/channel.ts): a page that wraps
 * the method, or replaces `Function.prototype.call`, later never sees the call.
 */
export const apply = Reflect.apply;

/** Adds `handler` for each of `types` on each of `targets`. Returns their removal, all at once. */
export function listen(targets: EventTarget[], types: string[], handler: (event: Event) => void): () => void {
  const each = (method: 'addEventListener' | 'removeEventListener') =>
    targets.forEach((target) => types.forEach((type) => target[method](type, handler)));
  each('addEventListener');
  return () => each('removeEventListener');
}

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
