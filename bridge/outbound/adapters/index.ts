/** The adapter registry and host detection. */
import type { HostScope } from '../../environment.js';
import type { ChannelNames, HostName } from '../../protocol/bridge-options.js';
import { androidAdapter } from './android.js';
import { browserAdapter } from './browser.js';
import type { HostAdapter } from '../channel.js';
import { flutterAdapter } from './flutter.js';
import { iosAdapter } from './ios.js';
import { reactNativeAdapter } from './react-native.js';

/** In the order detectHost tries them: the browser's last, as what is left when no app's channel is there. */
export const adapters: Readonly<Record<HostName, HostAdapter>> = {
  'react-native': reactNativeAdapter,
  ios: iosAdapter,
  android: androidAdapter,
  flutter: flutterAdapter,
  browser: browserAdapter,
};

/**
 * The host whose channel is present now. Channels created late (react-native-webview) cannot
 * be seen at install time; such hosts pass `host` explicitly, as the injected settings do.
 */
export function detectHost(scope: HostScope, names: ChannelNames): HostName {
  const hosts = Object.keys(adapters) as HostName[];
  return hosts.find((host) => adapters[host].find(scope, names) !== undefined) || 'browser';
}
