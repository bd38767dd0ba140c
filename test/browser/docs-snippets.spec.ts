/**
 * Browser snippets run as a reader would paste them, taken verbatim from the pages, in Chromium
 * against the reference backend: docs/browser.md's page (settings, bundle, import map, module
 * script with the typed client) and the README's five-minute browser page. Only their
 * placeholders change: the backend URL, the website token, and where dist/ is served.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startStaticServer } from '../../demo-page/static-server.mjs';
import { requireChromium } from '../helpers/chromium.js';
import { useBrowserHarness, WEBSITE_TOKEN } from '../helpers/browser-harness.js';

/** The first ```language block under the heading `heading` (any level) of the markdown file `file`. */
function snippet(file: string, heading: string, language: string): string {
  const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
  const at = text.search(new RegExp(`^#+ ${heading}\\n`, 'm'));
  if (at < 0) throw new Error(`${file} has no heading "${heading}"`);
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(text.slice(at));
  if (match?.[1] === undefined) throw new Error(`${file} has no ${language} snippet under "${heading}"`);
  return match[1];
}

describe.skipIf(!requireChromium())('browser snippets of the docs in Chromium', () => {
  const harness = useBrowserHarness();

  /** The snippet with its placeholders filled in: the reference backend, its website token, dist/ at /dist/. */
  const filled = (html: string) =>
    html
      .replace('https://chat.example.com/api/v1', harness.backend.url)
      .replace("websiteToken: '…'", `websiteToken: '${WEBSITE_TOKEN}'`)
      .replaceAll('/node_modules/chat-bridge/dist/', '/dist/');

  /**
   * Opens `html` as a real 127.0.0.1 page (Chromium lets only those reach the loopback backend) of
   * a page server of its own that serves dist/ at the snippet's paths, and waits until a console
   * line passes `until`; returns every console line and uncaught error of the page.
   */
  async function runPage(html: string, until: (text: string, args: unknown[]) => boolean): Promise<string[]> {
    const server = await startStaticServer({
      mounts: { '/dist/': fileURLToPath(new URL('../../dist', import.meta.url)) },
      pages: {
        '/snippet.html': `<!doctype html><html><head><meta charset="utf-8">${html}</head></html>`,
        '/favicon.ico': '', // Chromium asks for it; a 404 would be a console error
      },
    });
    const context = await harness.browser.newContext();
    try {
      const page = await context.newPage();
      const logged: string[] = [];
      page.on('console', (message) => logged.push(`${message.type()} ${message.text()}`));
      page.on('pageerror', (error) => logged.push(`uncaught ${error.message}`));
      const done = new Promise<void>((resolve) => {
        page.on('console', (message) => {
          void Promise.all(message.args().map((arg) => arg.jsonValue())).then(
            (args: unknown[]) => {
              if (until(message.text(), args)) resolve();
            },
            () => undefined,
          );
        });
      });
      await page.goto(`${server.url}/snippet.html`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out; console: ${JSON.stringify(logged)}`)), 10_000);
      });
      await Promise.race([done, timeout]).finally(() => clearTimeout(timer));
      return logged;
    } finally {
      await context.close();
      await server.close();
    }
  }

  it("docs/browser.md's page loads the bundle and the client through its import map, and init resolves", async () => {
    const html = filled(snippet('docs/browser.md', 'The page', 'html'));
    expect(html).toContain('<script type="importmap">');
    const logged = await runPage(html, (text) => text.startsWith('chat config'));

    expect(logged.filter((line) => line.startsWith('log chat config'))).toHaveLength(1);
    expect(logged.filter((line) => /^(warning|error|uncaught)/.test(line))).toEqual([]);
    expect(harness.backend.requests.some((entry) => entry.path === '/config' && entry.status === 200)).toBe(true);
  });

  it("the README's five-minute browser page receives ready, then the answer to init", async () => {
    const html = filled(snippet('README.md', 'A browser page', 'html'));
    expect(html).toContain(harness.backend.url);
    const seen: unknown[] = [];
    const logged = await runPage(html, (_, args) => {
      seen.push(...args);
      return args.some((arg) => (arg as { type?: unknown } | null)?.type === 'response');
    });

    const types = seen.map((arg) => (arg as { type?: unknown } | null)?.type);
    expect(types[0]).toBe('ready');
    expect(seen).toContainEqual(expect.objectContaining({ type: 'response', id: '1', ok: true }));
    expect(logged.filter((line) => /^(warning|error|uncaught)/.test(line))).toEqual([]);
  });
});
