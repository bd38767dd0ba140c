/**
 * What the WebKit tests inject into their pages (test/helpers/webkit-harness.ts): each library's
 * own channel script as it installs it on iOS, the harness's instrumentation, and the test pages.
 * Plain browser JavaScript, written as text: it runs in WebKit, not in Node.
 */
import { offlineStandInJs } from './offline-stand-in.js';

/** react-native-webview's document-start script on iOS (RNCWebViewImpl.m), as it installs the channel. */
export const REACT_NATIVE_WEBVIEW_SCRIPT = `window.ReactNativeWebView = window.ReactNativeWebView || {};
window.ReactNativeWebView.postMessage = function (data) {
  window.webkit.messageHandlers.ReactNativeWebView.postMessage(String(data));
};`;

/** webview_flutter_wkwebview's document-start script for a JavaScriptChannel: the handler itself. */
export const FLUTTER_CHANNEL_SCRIPT = 'window.ChatBridgeFlutter = webkit.messageHandlers.ChatBridgeFlutter;';

/** The harness's own instrumentation, plain browser JavaScript run first at document start. */
export const INSTRUMENT_JS = String.raw`(function () {
  'use strict';
  var violations = [];
  var errors = [];
  window.__violations = violations;
  window.__consoleErrors = errors;
  addEventListener('securitypolicyviolation', function (event) {
    violations.push({ directive: event.effectiveDirective, blockedURI: event.blockedURI, sample: event.sample });
  });
  var consoleError = console.error;
  console.error = function () {
    errors.push(Array.prototype.map.call(arguments, String).join(' '));
    return consoleError.apply(console, arguments);
  };
  addEventListener('error', function (event) { errors.push('uncaught: ' + event.message); });
  addEventListener('unhandledrejection', function (event) { errors.push('unhandled rejection: ' + event.reason); });

${offlineStandInJs('Load failed')}
  window.__authTokens = [];
  var offlineAwareFetch = window.fetch;
  window.fetch = function (input, init) {
    return offlineAwareFetch.call(window, input, init).then(function (response) {
      // The auth tokens handed to this page, so tests can check that no event carries one.
      if (/\/config$/.test(new URL(response.url || String(input), location.href).pathname)) {
        response.clone().json().then(function (body) {
          if (body && typeof body.authToken === 'string') window.__authTokens.push(body.authToken);
        }, function () {});
      }
      return response;
    });
  };
  window.__harness = {
    setOffline: setOffline,
  };
})();`;

const html = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>chat-bridge webkit</title>${body}</head><body></body></html>`;
export const PAGES = {
  '/webkit.html': html(''),
  '/csp-control.html': html(
    '<script>window.__inlineRan = true;</script><script src="/harness/eval-probe.js"></script>',
  ),
};
