/**
 * A react-native-webview stand-in in Chromium for `createReactNativeHost`, run in Node as the app
 * runs it: the page's `ReactNativeWebView.postMessage` reaches the host's `onMessage` through a
 * CDP binding, and the host's commands go in through `Runtime.evaluate`, as through the WebView
 * ref's `injectJavaScript`; `reload()` is `Page.reload`. It speaks CDP itself: Playwright gives up
 * on a page once it crashed, and a WebView does not.
 */
import type { BrowserContext, CDPSession } from 'playwright-core';
import { createReactNativeHost, type ReactNativeHost } from '../../host-adapters/react-native-host.js';
import type { OutboundMessage } from '../../bridge/protocol/messages.js';
import { WEBSITE_TOKEN } from './browser-harness.js';

/** react-native-webview's channel, handing each payload to the host in Node (before any other script). */
const CHANNEL_JS = `window.ReactNativeWebView = { postMessage: function (data) { __toNative(String(data)); } };`;

export interface ReactNativeWebView {
  host: ReactNativeHost;
  /** Every event the host's `onEvent` got, in order. */
  events: OutboundMessage[];
  cdp: CDPSession;
  /** Loads the bridge's test page with the bundle installed for `baseUrl`, as the app's `injectedJavaScript` would. */
  load(pageOrigin: string, baseUrl: string): Promise<void>;
}

/** `beforeLoad`: scripts every document runs first (before the channel), such as NO_WEB_LOCKS_JS. */
export async function openReactNativeWebView(
  context: BrowserContext,
  beforeLoad: string[] = [],
): Promise<ReactNativeWebView> {
  const page = await context.newPage();
  const events: OutboundMessage[] = [];
  const cdp = await context.newCDPSession(page);
  await cdp.send('Runtime.enable');
  await cdp.send('Page.enable');
  const webView = {
    injectJavaScript: (script: string) =>
      void cdp.send('Runtime.evaluate', { expression: script }).catch(() => undefined),
    reload: () => void cdp.send('Page.reload').catch(() => undefined),
  };
  const host = createReactNativeHost({ onEvent: (event) => events.push(event), webView: () => webView });
  await cdp.send('Runtime.addBinding', { name: '__toNative' });
  cdp.on('Runtime.bindingCalled', (call) => {
    if (call.name === '__toNative') host.onMessage({ nativeEvent: { data: call.payload } });
  });
  for (const source of [...beforeLoad, CHANNEL_JS]) await cdp.send('Page.addScriptToEvaluateOnNewDocument', { source });
  const load = async (pageOrigin: string, baseUrl: string) => {
    const settings = { baseUrl, websiteToken: WEBSITE_TOKEN, host: 'react-native' };
    // host=none: the harness's setup script installs no channel stand-in of its own.
    const query = new URLSearchParams({ host: 'none', settings: JSON.stringify(settings) });
    await cdp.send('Page.navigate', { url: `${pageOrigin}/bridge.html?${query}` });
  };
  return { host, events, cdp, load };
}
