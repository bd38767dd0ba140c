// @ts-check
/**
 * Settings used by more than one tool, in one place: the injected bundle's compression (the
 * build and the bench's like-for-like comparisons) and how Chromium is launched (the browser
 * tests and the bench). Plain JavaScript, so both the .mjs tools and the TypeScript tests import it.
 */

/**
 * The syntax newer than ES2017 that every supported engine has (docs/reference.md "Supported
 * engines": iOS 12.2, Android System WebView 71): object spread and rest (ES2018; iOS 11.3,
 * Chrome 60) and `catch` without a binding (ES2019; iOS 11.3, Chrome 66). esbuild keeps these
 * as written; everything else newer is lowered (`?.`, `??`, `||=`, class fields: WebView 71 and
 * iOS 12 lack them). Built-ins stay ES2017's (no `Promise.prototype.finally`, no
 * `Object.fromEntries`). test/unit/scripts/build.spec.ts checks the three scripts against this.
 * Each form by esbuild's name (its `supported` option), with es-check's name for it (its
 * `--allowList`, which build.spec.ts passes): one list, so neither tool can allow a form the
 * other refuses.
 */
const BEYOND_ES2017 = /** @type {const} */ ({
  'object-rest-spread': 'ObjectSpread',
  'optional-catch-binding': 'OptionalCatchBinding',
});
/** esbuild's `supported`: the forms above kept as written. */
export const SYNTAX_BEYOND_ES2017 = Object.fromEntries(Object.keys(BEYOND_ES2017).map((form) => [form, true]));
/** es-check's `--allowList` for the same forms. */
export const ES_CHECK_ALLOWED = Object.values(BEYOND_ES2017).join(',');

/**
 * esbuild's settings for an injectable script: one minified IIFE, ES2017 with the syntax above,
 * for older Android System WebViews and iOS 12 Safari. The bench builds the libraries it compares
 * with the same.
 */
export const IIFE_BUILD = /** @type {const} */ ({
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2017',
  supported: SYNTAX_BEYOND_ES2017,
  // Syntax only: terser (TERSER_OPTIONS) mangles and prints, and does both smaller on unmangled input.
  minifySyntax: true,
  legalComments: 'none',
});

/**
 * terser over esbuild's IIFE: multi-pass compression for the size budget. `ecma: 2019` lets it
 * print a `catch` without its unused binding; nothing it prints goes past SYNTAX_BEYOND_ES2017
 * (the build's tests check). `unsafe_arrows`
 * turns function expressions that use neither `this` nor `arguments` into arrows; it is unsafe
 * only for a function called with `new` or read for its `prototype`, which bridge/ never does
 * (its constructors are classes). `unsafe_regexp` puts a regular expression held in a constant
 * where it is used: a fresh literal for each use, so a `g` expression's `lastIndex` is never
 * shared (safer, not less safe). `unsafe_proto` reads `{}.hasOwnProperty` for
 * `Object.prototype.hasOwnProperty`: the same function. `inline: 1` inlines only functions without
 * parameters: inlining the others into their one caller made the bundle larger gzipped.
 * `hoist_funs` moves function declarations to the top of their scope, where the engine hoists
 * them anyway: the same code, in an order that gzips better (about 40 B). Six passes: each finds
 * what the one before made possible (the fourth and fifth about 40 B together, the sixth a few
 * bytes since the bundle stopped asking uglify-js for its blanket WebKit workaround), a seventh nothing.
 */
export const TERSER_OPTIONS = /** @type {const} */ ({
  ecma: 2019,
  compress: {
    passes: 6,
    pure_getters: true,
    unsafe_arrows: true,
    unsafe_regexp: true,
    unsafe_proto: true,
    inline: 1,
    hoist_funs: true,
  },
  mangle: true,
  format: { ecma: 2019, comments: false },
});

/**
 * Property names the bundle may shorten: each names a field of an object that never leaves the
 * bundle (verdicts, the environment, the outbox's and uploads' bookkeeping, the generated
 * validators' results), never one a host, the widget, the backend, storage, the starter's
 * handover or a web API reads or writes. A name belongs here only if no object crossing any of
 * those boundaries has it: terser renames it everywhere, and a mistake breaks the bundle only
 * (the ES modules and the debug bundle keep every name; test/unit/scripts/build.spec.ts runs the bundle,
 * and fails on a name here that bridge/ no longer writes).
 * `key` stays out: the lease reads `StorageEvent.key`, and with `builtins: true` terser would rename
 * that read too. `held`, `holding`, `waiting` and `pending` (the outbox's locks and the inbox lock,
 * the channel's and the command runner's counts) are in: Web Locks' `query()` result, the one web
 * object with such fields here,
 * is read with the field's name passed as a string (browser-locks.ts `names`), which terser leaves.
 * Every name the bundle still spells out three times or more was looked at (November 2026): each
 * crosses one of those boundaries (the public API and events, the starter's handover, commands,
 * stored records, web APIs) but the record stores' `remove`, which renamed made the bundle 1 B
 * larger gzipped, so it stays out.
 */
export const INTERNAL_NAMES = [
  ...['kind', 'command', 'secrets', 'deep', 'conversationToken', 'success', 'issues', 'safeParse'],
  ...['path', 'expected', 'timers', 'runner', 'api', 'answer', 'timeoutMs', 'newMessageId'],
  ...['run', 'untimed', 'finish', 'controller', 'timer', 'chunks', 'loose'],
  ...['take', 'settle', 'written', 'encode', 'deliver', 'forms', 'scrub', 'onToken'],
  ...['merged', 'resolved', 'records', 'restored', 'emit', 'page', 'prefix', 'drain', 'enqueue'],
  ...['onVisible', 'onConnectivityChange', 'onMessage', 'isOnline', 'pageOrigin', 'scope', 'apiOrigin'],
  ...['maxCommandLength', 'form', 'json', 'onProgress', 'delay', 'stop', 'list', 'cancel', 'clearAll'],
  ...['rawOptions', 'recorder', 'hosts', 'firm', 'wanted', 'keep', 'onWiped', 'onChange', 'record'],
  ...['held', 'holding', 'waiting', 'pending', 'retryAfter', 'issued'],
  // The outbox's clocks and upload budget (environment.ts `elapsed`, upload-budget.ts's tallies, the API's `reachable`).
  ...['elapsed', 'reachable', 'uploads', 'refusals', 'told'],
  // The uploads' and command specs' fields (dispatch/), and the adapters' field beside `encode`:
  // the bundle's adapters are its own, no host hands one in.
  ...['parts', 'blobbed', 'schema', 'oneByOne'],
  // Options the bundle reads from the host's object only by a name passed as a string (options.ts
  // `given` and `pick`), as `record`: the resolved options' fields of that name are the bundle's
  // own, and so are the retry policies' (the options' `retry`, the outbox's backoff).
  ...['websiteToken', 'forwardConversationToken', 'baseUrl', 'allowedOrigins', 'maxFileSize', 'widgetPrefix'],
  ...['maxMessageLength', 'requestTimeout', 'commandTimeout', 'limit', 'baseDelay', 'maxDelay'],
  ...['androidChannel', 'iosHandler', 'flutterChannel', 'browserEvent', 'backend', 'fileTypes'],
  // The backend profiles' fields (backend/profile.ts) and the API's `useContactToken`: the bundle's own objects.
  ...['conversationsPath', 'messagesPath', 'tokenName', 'tokenEverywhere', 'stale', 'sign', 'session'],
  ...['fileField', 'widgetContact', 'findSent', 'useContactToken', 'contactPath', 'rateLimitPasses'],
  // The lost answers' call (backend/lost-answers.ts): the API's own object.
  ...['sendOnce'],
  // A bridge installed over another (startup/install.ts), told to the outbox: the bundle's own objects.
  ...['replaces'],
  // A bridge's parts and its core (bridge.ts, core.ts): the bridge's own objects.
  ...[
    'env',
    'profile',
    'redactor',
    'emitter',
    'inFlight',
    'contactToken',
    'offline',
    'built',
    'fromHost',
    'unsubscribers',
  ],
  // The outbox's parts' own objects (outbox/): this page's lock, orphan recovery.
  ...['hold', 'letGo', 'adopt', 'isStored'],
];
/** terser's `mangle.properties.regex`: exactly the names above. */
export const INTERNAL_PROPERTIES = new RegExp(`^(?:${INTERNAL_NAMES.join('|')})$`);

/**
 * Gzipped bytes the injected script may take: the hard budget (test/unit/scripts/build.spec.ts
 * fails past it, the build and the bench print it). It leaves room for the backend profiles and a
 * source written for readers: the script ships inside the app, and start-up (the starter and the
 * bundle's evaluate, in `npm run bench`) is the figure that matters. bench/README.md says what each
 * part costs, and `node bench/bundle-size.mjs --modules` where the bytes are.
 */
export const BUNDLE_BUDGET = 16_384;

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** The flags this machine needs: no sandbox as root, and no background traffic to a closed network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
