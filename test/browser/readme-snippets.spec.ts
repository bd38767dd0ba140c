/**
 * README snippets run as a reader would paste them: the "Browser pages" snippet (settings,
 * bundle, import map, module script with the typed client), taken from README.md verbatim, in
 * Chromium against the reference backend. Only its placeholders change: the backend URL, the
 * website token, and where dist/ is served.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startStaticServer } from '../../demo-page/static-server.mjs';
import { requireChromium } from '../helpers/chromium.js';
import { useBrowserHarness, WEBSITE_TOKEN } from '../helpers/browser-harness.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

function snippet(heading: string, language: string): string {
  const section = README.slice(README.indexOf(`### ${heading}\n`));
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(section);
  if (match?.[1] === undefined) throw new Error(`README has no ${language} snippet under "${heading}"`);
  return match[1];
}

describe.skipIf(!requireChromium())('README snippets in Chromium', () => {
  const harness = useBrowserHarness();

  it('the browser page snippet loads the bundle and the client through its import map, and init resolves', async () => {
    const html = snippet('Browser pages', 'html')
      .replace('https://chat.example.com/api/v1', harness.backend.url)
      .replace("websiteToken: '…'", `websiteToken: '${WEBSITE_TOKEN}'`)
      .replaceAll('/node_modules/chat-bridge/dist/', '/dist/');
    expect(html).toContain('<script type="importmap">');

    // A page server of its own, so the page is a real 127.0.0.1 page (Chromium lets only those
    // reach the loopback backend), serving the snippet and dist/ at the snippet's paths.
    const server = await startStaticServer({
      mounts: { '/dist/': fileURLToPath(new URL('../../dist', import.meta.url)) },
      pages: {
        '/readme-browser.html': `<!doctype html><html><head><meta charset="utf-8">${html}</head></html>`,
        '/favicon.ico': '', // Chromium asks for it; a 404 would be a console error
      },
    });
    const context = await harness.browser.newContext();
    try {
      const page = await context.newPage();
      const logged: string[] = [];
      page.on('console', (message) => logged.push(`${message.type()} ${message.text()}`));
      page.on('pageerror', (error) => logged.push(`uncaught ${error.message}`));
      const configLogged = page.waitForEvent('console', {
        predicate: (message) => message.text().startsWith('chat config'),
        timeout: 10_000,
      });
      await page.goto(`${server.url}/readme-browser.html`);
      await configLogged.catch((error: unknown) => {
        throw new Error(`${String(error)}; console: ${JSON.stringify(logged)}`);
      });

      expect(logged.filter((line) => line.startsWith('log chat config'))).toHaveLength(1);
      expect(logged.filter((line) => /^(warning|error|uncaught)/.test(line))).toEqual([]);
      expect(harness.backend.requests.some((entry) => entry.path === '/config' && entry.status === 200)).toBe(true);
    } finally {
      await context.close();
      await server.close();
    }
  });
});
