/**
 * What WebKit's script message handlers really receive, checked against the shared vectors
 * (test/vectors/ios.json, react-native.json, flutter.json): each vector's message encoded by
 * WebKit in the page as the adapter does and posted through the host's real channel, and the
 * messages a running bridge delivers by itself. The handler side converts what WebKit hands over
 * as an iOS host gets it (dictionaries, arrays, strings, numbers, booleans, null) and reports
 * every `undefined`, which JSON and Foundation cannot hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodedVectors, postThroughChannel } from '../helpers/engine-vectors.js';
import { requireWebKit } from '../helpers/webkit.js';
import { WEBKIT_HOSTS, startWebKitHarness, type WebKitHarness, type WebKitPage } from '../helpers/webkit-harness.js';

describe.skipIf(!requireWebKit())('the vectors as WebKit delivers them', () => {
  let harness: WebKitHarness;
  const tabs = new Map<string, WebKitPage>();

  beforeAll(async () => {
    harness = await startWebKitHarness();
    for (const host of WEBKIT_HOSTS) tabs.set(host, await harness.open({ host }));
  });
  afterAll(async () => {
    await harness?.close();
  });

  describe.each(WEBKIT_HOSTS)('[webkit %s]', (host) => {
    it('delivers every vector message, encoded and posted by WebKit, as exactly the vector payload', async () => {
      const tab = tabs.get(host) as WebKitPage;
      const vectors = encodedVectors(host);
      expect(vectors.length).toBeGreaterThan(20);
      const since = tab.received.length;
      expect(
        await tab.evaluate(
          postThroughChannel(
            host,
            vectors.map(({ message }) => message),
          ),
        ),
      ).toBe(vectors.length);
      await until(() => tab.received.length >= since + vectors.length);

      const delivered = tab.received.slice(since);
      expect(delivered).toHaveLength(vectors.length);
      vectors.forEach((vector, index) => {
        const got = delivered[index];
        expect(got?.body, vector.name).toStrictEqual(vector.payload);
        expect(got?.undefinedAt, vector.name).toEqual([]);
      });
    });

    it('delivers what the running bridge sends by itself (ready, a widget event) as the vectors say', async () => {
      const tab = tabs.get(host) as WebKitPage;
      const payloadOf = (name: string) => encodedVectors(host).find((vector) => vector.name === name)?.payload;
      // The bridge said ready when the page loaded: the first thing the handler received.
      expect(tab.received[0]?.body).toStrictEqual(payloadOf('ready'));
      const since = tab.received.length;
      await tab.postWindowMessage('chatwoot-widget:{"event":"loaded"}');
      await tab.waitFor({ type: 'widget' }, { since });
      expect(tab.received[since]?.body).toStrictEqual(payloadOf('widget loaded without data'));
    });
  });

  it("[webkit ios] delivers every vector alike to the bench's host, which converts each body in one native call", async () => {
    const tab = await harness.open({ host: 'ios', bodies: 'json' });
    const vectors = encodedVectors('ios');
    const since = tab.received.length;
    await tab.evaluate(
      postThroughChannel(
        'ios',
        vectors.map(({ message }) => message),
      ),
    );
    await until(() => tab.received.length >= since + vectors.length);
    expect(tab.received.slice(since).map((got) => got.body)).toStrictEqual(vectors.map(({ payload }) => payload));
    // JSON's conversion, not the walk's: an undefined is left out without being reported.
    await tab.evaluate("webkit.messageHandlers.chatBridge.postMessage({ type: 'x', status: undefined }); return null;");
    await until(() => tab.received.length > since + vectors.length);
    expect(tab.received[since + vectors.length]).toMatchObject({ body: { type: 'x' }, undefinedAt: [] });
    await tab.close();
  });

  it('[webkit ios] hands a property set to undefined to the handler as undefined, which a dictionary leaves out', async () => {
    // Not something the bridge sends (it posts JSON text; every scenario checks that no undefined
    // reaches a handler); this pins what WebKit delivers when a page script posts such an object,
    // for the Swift receiver's sake.
    const tab = tabs.get('ios') as WebKitPage;
    const since = tab.received.length;
    await tab.evaluate(
      "webkit.messageHandlers.chatBridge.postMessage({ type: 'error', code: 'server_error', retryable: true, message: 'm', status: undefined, errors: { email: [undefined] } }); return null;",
    );
    await until(() => tab.received.length > since);
    const got = tab.received[since];
    expect(got?.body).toStrictEqual({
      type: 'error',
      code: 'server_error',
      retryable: true,
      message: 'm',
      errors: { email: [null] },
    });
    expect([...(got?.undefinedAt ?? [])].sort()).toEqual(['errors.email[0]', 'status']);
  });
});

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
