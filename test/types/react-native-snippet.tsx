/**
 * The React Native host's own types against the real `react-native-webview` types (pinned
 * devDependencies, installed with --ignore-scripts), by `npm run typecheck`: react-native-webview's
 * events and instance fit what `createReactNativeHost` takes. Not run. The docs' screens themselves
 * are compiled as written by test/docs/snippets.spec.ts (scripts/docs-snippets.mjs).
 */
import type { ComponentProps } from 'react';
import type { WebView, WebViewMessageEvent } from 'react-native-webview';
import { expectTypeOf } from 'vitest';
import { createReactNativeHost } from '../../host-adapters/react-native-host.js';

// react-native-webview's own event is what host.onMessage accepts, not just a look-alike.
declare const realEvent: WebViewMessageEvent;
declare const host: ReturnType<typeof createReactNativeHost>;
host.onMessage(realEvent);
expectTypeOf<WebViewMessageEvent>().toExtend<Parameters<typeof host.onMessage>[0]>();
// onLoadStart reads the URL loading from react-native-webview's own navigation event.
type LoadStartEvent = Parameters<NonNullable<ComponentProps<typeof WebView>['onLoadStart']>>[0];
expectTypeOf<LoadStartEvent>().toExtend<NonNullable<Parameters<typeof host.onLoadStart>[0]>>();
// A WebView instance is what webView() may return.
expectTypeOf<WebView>().toExtend<NonNullable<ReturnType<Parameters<typeof createReactNativeHost>[0]['webView']>>>();
