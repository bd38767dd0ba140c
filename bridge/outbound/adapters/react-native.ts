/** React Native: `window.ReactNativeWebView.postMessage(string)`; arrives as `<WebView onMessage>` data. */
import { postMessageOf, toJsonString, type HostAdapter } from '../channel.js';

export const reactNativeAdapter: HostAdapter = {
  encode: toJsonString,
  find: (scope) => postMessageOf(scope['ReactNativeWebView']),
};
