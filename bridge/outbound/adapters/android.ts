/** Android: a `@JavascriptInterface` object, `window.<androidChannel>.postMessage(String)`. */
import { postMessageOf, toJsonString, type HostAdapter } from '../channel.js';

export const androidAdapter: HostAdapter = {
  // A JavascriptInterface method takes Java strings; objects would arrive as "[object Object]".
  encode: toJsonString,
  find: (scope, names) => postMessageOf(scope[names.androidChannel]),
};
