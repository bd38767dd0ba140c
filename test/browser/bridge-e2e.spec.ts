/**
 * The injected bundle in headless Chromium, against the reference backend on another origin:
 * the full round trip, a backend without CORS headers, Retry-After across origins, and the
 * bundle under a strict Content-Security-Policy (no unsafe-eval, no unsafe-inline).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { requireChromium } from '../helpers/chromium.js';
import { logLines, useBrowserHarness, waitForLog, type BridgePage } from '../helpers/browser-harness.js';
import { expectPreflightedRoundTrip } from '../helpers/page-servers.js';
import { runRoundTrip } from '../helpers/round-trip.js';

describe.skipIf(!requireChromium())(
  'chat-bridge.js in Chromium against the reference backend on another origin',
  () => {
    const harness = useBrowserHarness();
    let tab: BridgePage | undefined;
    afterEach(async () => {
      await tab?.close();
      tab = undefined;
      harness.backend.reset();
    });

    it('runs init, getConversation (404, then created) and a multipart sendMessage, each through a real CORS preflight', async () => {
      tab = await harness.open({ host: 'ios' });
      const { backend } = harness;

      await runRoundTrip(tab, 'Hello from the page');

      // The backend's view, before storedMessages() adds its own requests to the log.
      expectPreflightedRoundTrip(backend, harness.pageOrigin);

      expect(await harness.storedMessages()).toMatchObject([
        { content: 'Hello from the page', attachments: [{ name: 'hello.txt', type: 'text/plain', size: 17 }] },
      ]);
      const messages = await tab.messages();
      expect(messages.filter((message) => message.type === 'error')).toEqual([]);
      // Chromium itself logs the 404 the bridge recovered from; nothing else reached the console.
      expect(tab.consoleErrors).toEqual([
        `Failed to load resource: the server responded with a status of 404 (Not Found) (${backend.url}/conversations)`,
      ]);
    });

    it('sends base64 wrapped at 76 columns, names base64url, and answers a command over the cap on its id with file_too_large, sending nothing', async () => {
      tab = await harness.open({ host: 'android', settings: { maxFileSize: 3_000, maxMessageLength: 1_000 } });
      const bytes = Buffer.from(Array.from({ length: 2_000 }, (_, i) => i % 251));
      // 76-column lines as MIME (RFC 2045) wraps them; Android's Base64.DEFAULT ends them with \n alone.
      const wrapped = bytes.toString('base64').replace(/.{76}/g, '$&\r\n');
      const sent = await tab.call('sendMessage', {
        attachments: [{ name: 'wrapped.bin', type: 'image/png', data: wrapped }],
      });
      expect(sent).toMatchObject({ ok: true, result: { attachments: [{ name: 'wrapped.bin', size: 2_000 }] } });

      const url = await tab.call('sendMessage', { attachments: [{ name: 'u.png', type: 'image/png', data: 'ab-_' }] });
      expect(url).toMatchObject({
        ok: false,
        error: { code: 'parse_error', message: expect.stringContaining('base64url') as unknown },
      });

      const since = await tab.mark();
      const video = Buffer.alloc(20_000, 1).toString('base64');
      const command = JSON.stringify({
        id: 'video-1',
        method: 'sendMessage',
        params: { content: 'the video', attachments: [{ name: 'clip.mp4', type: 'video/mp4', data: video }] },
      });
      await tab.receiveText(command);
      expect(await tab.waitFor({ type: 'response', id: 'video-1' }, { since })).toEqual({
        type: 'response',
        id: 'video-1',
        ok: false,
        error: {
          type: 'error',
          code: 'file_too_large',
          retryable: false,
          status: 413,
          message: '[POST /messages] 413: clip.mp4 is 20000 bytes, over 3000',
        },
      });
      expect(await harness.storedMessages()).toMatchObject([{ attachments: [{ name: 'wrapped.bin', size: 2_000 }] }]);
    });

    it('reports network_error when the backend answers /config without CORS headers, as real WebViews do', async () => {
      tab = await harness.open({ host: 'android' });
      const { backend } = harness;
      backend.setFault('no-cors', true);

      const init = await tab.call('init');
      expect(init).toMatchObject({ ok: false, error: { type: 'error', code: 'network_error' } });
      // The backend did answer 200; the browser withheld it from the page.
      expect(logLines(backend)).toEqual(['GET /config 200']);
    });

    it('reports network_error when the preflight lacks CORS headers, and the request itself is never sent', async () => {
      tab = await harness.open({ host: 'android' });
      const { backend } = harness;
      expect(await tab.call('init')).toMatchObject({ ok: true });
      backend.setFault('no-cors', true);

      const conversation = await tab.call('getConversation');
      expect(conversation).toMatchObject({ ok: false, error: { code: 'network_error' } });
      if (conversation.ok) return;
      expect(conversation.error.message).toContain('[GET /conversations] network error');
      await tab.waitFor({ type: 'error', code: 'network_error' });
      expect(logLines(backend)).toEqual(['GET /config 200', 'OPTIONS /conversations 204']);
    });

    describe('429 with Retry-After, across origins', () => {
      const CAPPED = { retry: { limit: 1, baseDelay: 10, maxDelay: 500 } };

      it('reads an exposed Retry-After: 1 s over a 0.5 s cap ends the retries at once', async () => {
        tab = await harness.open({ host: 'flutter', settings: CAPPED });
        harness.backend.setFault('rate-limited', true);

        const asked = Date.now();
        const init = await tab.call('init');
        expect(init).toMatchObject({ ok: false, error: { code: 'rate_limited', status: 429 } });
        if (!init.ok) {
          expect(init.error.message).toContain('Retry-After over the 0.5 s cap');
          // Read, so it says when: the server's 1 s from its answer.
          expect(init.error.retryAt).toBeGreaterThanOrEqual(asked + 1_000);
          expect(init.error.retryAt).toBeLessThanOrEqual(Date.now() + 1_000);
        }
        expect(logLines(harness.backend)).toEqual(['GET /config 429']);
      });

      it('falls back to its own backoff when the backend does not expose Retry-After', async () => {
        tab = await harness.open({ host: 'flutter', settings: CAPPED });
        harness.backend.setFault('rate-limited', true);
        harness.backend.setFault('no-expose-retry-after', true);

        const init = await tab.call('init');
        expect(init).toMatchObject({ ok: false, error: { code: 'rate_limited', status: 429 } });
        if (!init.ok) expect(init.error.message).toContain('gave up after 1 retry');
        expect(logLines(harness.backend)).toEqual(['GET /config 429', 'GET /config 429']);
      });

      it('waits the Retry-After the backend asked for, then succeeds', async () => {
        tab = await harness.open({ host: 'browser', settings: { retry: { limit: 1, baseDelay: 10, maxDelay: 2000 } } });
        const { backend } = harness;
        backend.setFault('rate-limited', true);

        const since = await tab.mark();
        const id = await tab.send('init');
        await waitForLog(backend, (log) => log.length === 1);
        backend.setFault('rate-limited', false);

        expect(await tab.waitFor({ type: 'response', id }, { since })).toMatchObject({ ok: true });
        expect(logLines(backend)).toEqual(['GET /config 429', 'GET /config 200']);
        const [first, second] = backend.requests;
        // Only a lower bound: the bridge may wait longer, never shorter than the 1 s asked for.
        expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(900);
      });
    });

    describe('under a strict CSP', () => {
      it('serves the test page with a policy that forbids eval and inline scripts', async () => {
        const response = await fetch(`${harness.strictOrigin}/bridge.html`);
        expect(response.headers.get('content-security-policy')).toBe(harness.csp);
        expect(harness.csp).toContain("script-src 'self'");
        expect(harness.csp).not.toContain('unsafe-');
      });

      // The control: without it, "no violation" below could mean the listener never hears any.
      it('blocks and reports an inline script and eval on the control page', async () => {
        tab = await harness.open({ host: 'browser', strictCsp: true, path: '/csp-control.html' });
        const ran = await tab.page.evaluate(() => {
          const flags = window as unknown as { __inlineRan?: boolean; __evalRan?: boolean };
          return { inline: flags.__inlineRan, eval: flags.__evalRan };
        });
        expect(ran).toEqual({ inline: undefined, eval: false });
        const violations = await tab.violations();
        expect(violations.map((violation) => `${violation.directive} ${violation.blockedURI}`).sort()).toEqual([
          'script-src eval',
          'script-src-elem inline',
        ]);
      });

      it('installs from injected settings and completes init, conversation, an upload and a widget event with no violation and no console error', async () => {
        tab = await harness.open({ host: 'browser', strictCsp: true });

        expect(await tab.call('init')).toMatchObject({ ok: true, result: { config: { widget: {} } } });
        expect(await tab.call('getConversation', { name: 'Grace' })).toMatchObject({
          ok: true,
          result: { contact: { name: 'Grace' } },
        });
        const sent = await tab.call('sendMessage', {
          content: 'under CSP',
          attachments: [{ name: 'dot.png', type: 'image/png', data: 'iVBORw0KGgo=' }],
        });
        expect(sent).toMatchObject({
          ok: true,
          result: { content: 'under CSP', attachments: [{ name: 'dot.png', size: 8 }] },
        });
        // A widget message goes through the inbound schemas too (a schema library may compile parsers with eval).
        const since = await tab.mark();
        await tab.page.evaluate(() =>
          window.postMessage('chatwoot-widget:{"event":"loaded","config":{"locale":"en"}}', location.origin),
        );
        expect(await tab.waitFor({ type: 'widget' }, { since })).toEqual({
          type: 'widget',
          event: 'loaded',
          data: { config: { locale: 'en' } },
        });

        expect(await tab.violations()).toEqual([]);
        expect(tab.consoleErrors).toEqual([
          `Failed to load resource: the server responded with a status of 404 (Not Found) (${harness.backend.url}/conversations)`,
        ]);
        expect((await tab.messages()).filter((message) => message.type === 'error')).toEqual([]);
      });
    });
  },
);
