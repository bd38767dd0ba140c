/**
 * What scripts/build.mjs writes: the injectable bundle, dist/chat-bridge.js, as a file: its size budget, what it may not
 * contain, what it does to the global object, and the language level it needs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext, runInContext, type Context } from 'node:vm';
import { gzipSync } from 'node:zlib';
import {
  BUNDLE_BUDGET,
  ES_CHECK_ALLOWED,
  INTERNAL_NAMES,
  SYNTAX_BEYOND_ES2017,
} from '../../../scripts/shared-settings.mjs';
import { gzippedSizes } from '../../../scripts/gzip-size.mjs';
import { transformSync } from 'esbuild';
import { ESLint } from 'eslint';
import compat from 'eslint-plugin-compat';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILT_PATHS, readBuiltScripts, ROOT as root } from '../../helpers/built-scripts.js';

/** The starter's budget (gzipped bytes): it is there to cost the page little at document start. */
const STARTER_BUDGET = 2_048;

let source = '';
let debugSource = '';
let starterSource = '';

beforeAll(() => {
  ({ bundle: source, debug: debugSource, starter: starterSource } = readBuiltScripts());
});

/**
 * A vm context standing in for a WebView window: the context's global object is `window`
 * (as in a browser), with just what the bridge touches. `codeGeneration.strings: false`
 * makes `eval` and `new Function` throw, as a Content-Security-Policy without 'unsafe-eval' does.
 */
function fakeWebView(setup: { settings?: object; prelude?: string } = {}) {
  const posted: string[] = [];
  const fetches: string[] = [];
  const consoleErrors: unknown[] = [];
  const listeners = new Map<string, Set<(event: unknown) => void>>();
  const events = {
    addEventListener: (type: string, listener: (event: unknown) => void) => {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)?.add(listener);
    },
    removeEventListener: (type: string, listener: (event: unknown) => void) =>
      void listeners.get(type)?.delete(listener),
  };
  const storage = new Map<string, string>();
  const sandbox: Record<string, unknown> = {
    ...events,
    document: { addEventListener: () => undefined, removeEventListener: () => undefined },
    location: { origin: 'https://app.example.test', href: 'https://app.example.test/' },
    navigator: { onLine: true },
    localStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
    },
    setTimeout,
    clearTimeout,
    // Web APIs, which a vm context (JavaScript built-ins only) does not have.
    URL,
    AbortController,
    Blob,
    FormData,
    atob,
    btoa,
    CustomEvent,
    fetch: (url: string) => {
      fetches.push(url);
      return Promise.reject(new TypeError('no network in this test'));
    },
    console: {
      error: (...args: unknown[]) => void consoleErrors.push(args),
      warn: () => undefined,
      log: () => undefined,
    },
    ReactNativeWebView: { postMessage: (data: string) => void posted.push(data) },
  };
  if (setup.settings !== undefined) sandbox['chatBridgeSettings'] = setup.settings;
  const context: Context = createContext(sandbox, { codeGeneration: { strings: false, wasm: false } });
  // In a browser `window` is the global object itself.
  runInContext('var window = this;', context);
  if (setup.prelude !== undefined) runInContext(setup.prelude, context);
  const globalNames = () => runInContext('Object.getOwnPropertyNames(this)', context) as string[];
  return {
    context,
    posted,
    fetches,
    consoleErrors,
    globalNames,
    run: (code: string) => runInContext(code, context) as unknown,
    messages: () => posted.map((data) => JSON.parse(data) as Record<string, unknown>),
  };
}

const settings = { baseUrl: 'https://chat.example.test/api/v1', websiteToken: 'wt_demo', host: 'react-native' };
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Whether esbuild had to lower (rewrite) any of `code` for the supported engines' syntax: ES2017
 * with SYNTAX_BEYOND_ES2017. esbuild lowers every newer construct (`?.`, `??`, class fields, async
 * iteration, ES2018+ RegExp syntax turned into `new RegExp` calls...) and refuses what it cannot
 * lower (BigInt literals...), so reprinting for those engines and for esnext, both unminified,
 * gives the same text exactly when there was nothing to lower.
 */
function lowered(code: string): boolean {
  const asEsnext = transformSync(code, { loader: 'js', target: 'esnext' }).code;
  try {
    return transformSync(code, { loader: 'js', target: 'es2017', supported: SYNTAX_BEYOND_ES2017 }).code !== asEsnext;
  } catch {
    return true;
  }
}

describe('dist/chat-bridge.js', () => {
  it(`gzips (level 9) to at most ${BUNDLE_BUDGET} bytes, by zlib and by GNU gzip -9 of the file`, () => {
    const gzipped = gzipSync(source, { level: 9 }).length;
    const { gnu } = gzippedSizes(BUILT_PATHS.bundle);
    console.log(
      `dist/chat-bridge.js: ${source.length} bytes, ${gzipped} bytes gzipped, ${gnu} by GNU gzip -9 (budget ${BUNDLE_BUDGET})`,
    );
    expect(gzipped).toBeLessThanOrEqual(BUNDLE_BUDGET);
    expect(gnu).toBeLessThanOrEqual(BUNDLE_BUDGET);
  });

  it('shortens only names that bridge/ writes: no name left in INTERNAL_NAMES after its code went', () => {
    const bridgeSource = readdirSync(join(root, 'bridge'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(join(root, 'bridge', file), 'utf8'))
      .join('\n');
    expect(INTERNAL_NAMES.length).toBeGreaterThan(100);
    expect(INTERNAL_NAMES.filter((name) => !new RegExp(`\\b${name}\\b`).test(bridgeSource))).toEqual([]);
  });

  it('contains no eval( call, no new Function and no Function( call', () => {
    expect(source).not.toMatch(/\beval\s*\(/);
    expect(source).not.toMatch(/\bnew\s+Function\b/);
    expect(source).not.toMatch(/\bFunction\s*\(/);
  });

  it('is one strict-mode IIFE', () => {
    expect(source.trim()).toMatch(/^"use strict";\(\(\)=>\{[\s\S]*\}\)\(\);$/);
  });

  it('loads, installs from injected settings and handles commands with string code generation disabled (a CSP without unsafe-eval)', async () => {
    const webView = fakeWebView({ settings });
    // The premise: code generation from strings really is refused in this context.
    expect(() => webView.run('new Function("return 1")')).toThrow(/Code generation from strings disallowed/);
    webView.run(source);

    // Commands go through the schemas (the generated validators; zod would compile parsers with `new Function`).
    webView.run(`ChatBridge.receive({ id: 'bad-params', method: 'sendMessage', params: { content: 5 } })`);
    webView.run(`ChatBridge.receive('{"id":"empty","method":"sendMessage","params":{"content":""}}')`);
    await flush();

    const messages = webView.messages();
    expect(messages[0]).toEqual({ type: 'ready' });
    expect(messages).toContainEqual(
      expect.objectContaining({
        type: 'response',
        id: 'bad-params',
        ok: false,
        error: expect.objectContaining({ code: 'parse_error' }),
      }),
    );
    expect(messages).toContainEqual(
      expect.objectContaining({
        type: 'response',
        id: 'empty',
        ok: false,
        error: expect.objectContaining({ code: 'empty_message' }),
      }),
    );
    expect(webView.fetches).toEqual([]);
    expect(webView.consoleErrors).toEqual([]);
  });

  it('makes no Error while it is evaluated and installs itself (in Chromium each costs a parse of the whole script)', () => {
    // An Error's stack needs source positions, which V8 works out by parsing its script again:
    // one Error made at the bundle's top level cost milliseconds at document start.
    const webView = fakeWebView({
      settings,
      prelude: `var errorsMade = 0;
        Error = new Proxy(Error, { construct(target, args, newTarget) { errorsMade++; return Reflect.construct(target, args, newTarget); } });`,
    });
    webView.run(source);
    expect(webView.run('typeof ChatBridge.receive')).toBe('function');
    expect(webView.run('errorsMade')).toBe(0);
    // The proxy counts: an Error made now is seen.
    webView.run('new Error("counted")');
    expect(webView.run('errorsMade')).toBe(1);
  });

  it('adds no global but ChatBridge, neither when evaluated nor when it installs itself', async () => {
    const webView = fakeWebView({ settings });
    const before = new Set(webView.globalNames());

    webView.run(source);
    await flush(); // the bridge is built in the task after install

    expect(webView.posted).toEqual(['{"type":"ready"}']); // it did install
    expect(webView.globalNames().filter((name) => !before.has(name))).toEqual(['ChatBridge']);
  });

  it('needs no syntax newer than ES2017 but object spread and catch without a binding (SYNTAX_BEYOND_ES2017)', () => {
    expect(lowered(source), 'the bundle uses syntax that esbuild had to lower').toBe(false);
  });

  it('detects newer syntax with that comparison, and lets the two allowed forms through (the check above can fail)', () => {
    for (const newer of [
      'a?.b;',
      'a ?? b;',
      'a ||= b;',
      'class A { x = 1 }',
      '/(?<y>\\d{4})/;',
      'async function* g() {}',
    ])
      expect(lowered(newer), newer).toBe(true);
    for (const allowed of ['x = {...a};', 'var {a, ...rest} = x;', 'try { f() } catch { g() }'])
      expect(lowered(allowed), allowed).toBe(false);
  });

  it('runs without the post-ES2017 globals that iOS 12.0 Safari and older Android WebViews lack (globalThis...)', async () => {
    // Safari 12.0 has none of these; globalThis arrived in Safari 12.1 and Chrome 71.
    const missing = [
      'globalThis',
      'Object.fromEntries',
      'Object.hasOwn',
      'Array.prototype.at',
      'String.prototype.at',
      'String.prototype.matchAll',
      'String.prototype.replaceAll',
      'Promise.allSettled',
      'Promise.any',
      'structuredClone',
      'WeakRef',
      'AggregateError',
      'Promise.prototype.finally',
    ];
    const prelude = missing.map((path) => (path.includes('.') ? `delete ${path};` : `delete this.${path};`)).join('\n');
    const webView = fakeWebView({ settings, prelude });
    expect(webView.run('typeof globalThis')).toBe('undefined');

    expect(() => webView.run(source)).not.toThrow();
    webView.run(`ChatBridge.receive({ id: 'old', method: 'sendMessage', params: { content: '' } })`);
    // init with a failing fetch still answers (it once hung on Promise.prototype.finally).
    webView.run(`ChatBridge.receive({ id: 'config', method: 'init' })`);
    for (let i = 0; i < 50 && !webView.messages().some((message) => message['id'] === 'config'); i++) await flush();

    expect(webView.messages()[0]).toEqual({ type: 'ready' });
    expect(webView.messages()).toContainEqual(
      expect.objectContaining({
        type: 'response',
        id: 'config',
        ok: false,
        error: expect.objectContaining({ code: 'network_error' }),
      }),
    );
    expect(webView.messages()).toContainEqual(
      expect.objectContaining({
        type: 'response',
        id: 'old',
        error: expect.objectContaining({ code: 'empty_message' }),
      }),
    );
    for (const name of [
      'globalThis',
      'fromEntries',
      'hasOwn',
      'matchAll',
      'replaceAll',
      'allSettled',
      'structuredClone',
      'WeakRef',
      'AggregateError',
    ]) {
      expect(source, `the bundle mentions ${name}`).not.toMatch(new RegExp(`\\b${name}\\b`));
    }
  });
});

describe('dist/chat-bridge.debug.js (the bundle with the recorder)', () => {
  it('is one strict-mode IIFE without eval, new Function or syntax the supported engines lack', () => {
    expect(debugSource.trim()).toMatch(/^"use strict";\(\(\)=>\{[\s\S]*\}\)\(\);$/);
    expect(debugSource).not.toMatch(/\beval\s*\(|\bnew\s+Function\b|\bFunction\s*\(/);
    expect(lowered(debugSource)).toBe(false);
  });

  it('with injected record: true and string code generation disabled, adds only ChatBridge and records', async () => {
    const webView = fakeWebView({ settings: { ...settings, record: true } });
    const before = new Set(webView.globalNames());
    webView.run(debugSource);
    webView.run(`ChatBridge.receive({ id: 'empty', method: 'sendMessage', params: { content: '' } })`);
    await flush();

    expect(webView.globalNames().filter((name) => !before.has(name))).toEqual(['ChatBridge']);
    expect(webView.messages().map((message) => message['type'])).toEqual(['ready', 'response', 'error']);
    const recording = webView.run('ChatBridge.recording()') as string;
    // The message id the bridge gave the message is recorded with it, so a replay reports the same id.
    expect(recording).toMatch(
      /\{"step":"host","data":\{"id":"empty","method":"sendMessage","params":\{"messageId":"[0-9a-z]+-0","content":""\}\}\}/,
    );
    expect(recording).not.toContain(settings.websiteToken);
    expect(webView.consoleErrors).toEqual([]);
  });

  it('is what record: true needs: the plain bundle refuses it on the console, naming the debug script', () => {
    const webView = fakeWebView({ settings: { ...settings, record: true } });
    webView.run(source);
    expect(webView.posted).toEqual([]);
    expect(String(webView.consoleErrors[0])).toMatch(/"record" needs dist\/chat-bridge\.debug\.js/);
  });
});

describe('dist/chat-bridge.start.js (the starter, bridge/startup/starter.ts)', () => {
  it(`is one strict-mode IIFE without eval, gzipped to at most ${STARTER_BUDGET} bytes, with none of the bridge in it`, () => {
    expect(starterSource.trim()).toMatch(/^"use strict";\(\(\)=>\{[\s\S]*\}\)\(\);$/);
    expect(starterSource).not.toMatch(/\beval\s*\(|\bnew\s+Function\b|\bFunction\s*\(/);
    const gzipped = gzipSync(starterSource, { level: 9 }).length;
    console.log(`dist/chat-bridge.start.js: ${starterSource.length} bytes, ${gzipped} bytes gzipped`);
    expect(gzipped).toBeLessThanOrEqual(STARTER_BUDGET);
    for (const part of ['indexedDB', 'fetch(', 'XMLHttpRequest', 'postMessage'])
      expect(starterSource).not.toContain(part);
  });

  it('with string code generation disabled, adds only ChatBridge; the bundle after it takes over and answers the kept command', async () => {
    const webView = fakeWebView({ settings });
    const before = new Set(webView.globalNames());
    webView.run(starterSource);
    webView.run(`ChatBridge.receive({ id: 'early', method: 'nope' })`);
    await flush();
    expect(webView.globalNames().filter((name) => !before.has(name))).toEqual(['ChatBridge']);
    expect(webView.posted).toEqual([]);
    webView.run(source);
    await flush();
    expect(webView.messages().map((message) => message['type'])).toEqual(['ready', 'response', 'error']);
    expect(webView.messages()[1]).toMatchObject({ id: 'early', ok: false, error: { code: 'unknown_method' } });
    expect(webView.consoleErrors).toEqual([]);
  });
});

/**
 * The engines the bundle needs, as the "Supported engines" table of docs/reference.md states them: ES2017
 * for the language, with object spread and `catch` without a binding (syntax and built-ins, checked
 * by es-check, which knows instance methods such as Promise.prototype.finally), and package.json's "browserslist" for web APIs (checked by
 * eslint-plugin-compat over the whole bundle, so zod's code counts as much as ours; `npm run lint`
 * runs the same plugin over bridge/ with file and line).
 */
describe('dist/chat-bridge.js and the supported engines', () => {
  const esCheck = (file: string) =>
    spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/es-check/lib/cli/index.js'),
        'es2017',
        file,
        '--checkFeatures',
        // es-check's names for SYNTAX_BEYOND_ES2017 (scripts/shared-settings.mjs).
        '--allowList',
        ES_CHECK_ALLOWED,
        '--noColor',
      ],
      {
        encoding: 'utf8',
      },
    );
  const compatErrors = async (text: string) => {
    const eslint = new ESLint({
      cwd: root,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.js'],
          languageOptions: { sourceType: 'script', ecmaVersion: 2019 },
          plugins: { compat },
          // Web Locks is optional (docs/reference.md "Supported engines"): bridge/ must use it behind a
          // feature check, which npm run lint verifies in the source; minifying may reshape that
          // guard beyond what the plugin recognizes, so here it counts as provided.
          settings: { polyfills: ['navigator.locks'] },
          rules: { 'compat/compat': 'error' },
        },
      ],
    });
    // The browserslist is looked up from the file's folder: package.json's.
    const [result] = await eslint.lintText(text, { filePath: join(root, 'dist/chat-bridge.js') });
    return (result?.messages ?? []).map((message) => `${message.line}:${message.column} ${message.message}`);
  };

  it('uses no syntax and no built-in newer than ES2017 but the two allowed forms, nor do the debug bundle and the starter (es-check --checkFeatures)', () => {
    for (const file of Object.values(BUILT_PATHS)) {
      const result = esCheck(file);
      expect(result.status, result.stdout + result.stderr).toBe(0);
    }
  });

  it('es-check refuses an ES2018 built-in such as Promise.prototype.finally (the check above can fail)', () => {
    const folder = mkdtempSync(join(tmpdir(), 'es-check-'));
    try {
      const file = join(folder, 'newer.js');
      writeFileSync(file, 'fetch("/x").finally(function () {});\n');
      const result = esCheck(file);
      expect(result.status).not.toBe(0);
      expect(result.stdout + result.stderr).toContain('PromiseFinally');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('uses no web API that the browserslist engines (iOS 12.2, Android System WebView 71) lack, zod included', async () => {
    expect(await compatErrors(source)).toEqual([]);
    expect(await compatErrors(starterSource)).toEqual([]);
  });

  it('eslint-plugin-compat reports an API those engines lack, e.g. structuredClone (the check above can fail)', async () => {
    const errors = await compatErrors('var copy = structuredClone({ a: 1 });\n');
    expect(errors.join('\n')).toMatch(/structuredClone is not supported in .*iOS Safari 12\.2/);
  });
});
