/**
 * `createBridge` and `createGlobal` with the recorder plugged in, for the ES module entry
 * (`index.ts`): TypeScript users and the Node tools get `record: true` without a second entry,
 * as the debug bundle does. The injected bundle imports the plain ones from `bridge.ts` and
 * `install.ts`.
 */
import { createBridge as createPlainBridge, type Bridge, type CreateBridgeSettings } from '../bridge.js';
import type { Environment } from '../environment.js';
import { createGlobal as createPlainGlobal, type ChatBridgeGlobal, type GlobalPlugins } from './install.js';
import type { ResolvedOptions } from '../options.js';
import { createRecorder } from '../recording/recorder.js';

/** One running bridge; `record: true` records unless `settings.recorder` says otherwise. */
export function createBridge(options: ResolvedOptions, env: Environment, settings: CreateBridgeSettings = {}): Bridge {
  return createPlainBridge(options, env, { recorder: createRecorder, ...settings });
}

/** The `ChatBridge` global for a window, with the recorder. */
export function createGlobal(win: Window & typeof globalThis, plugins: GlobalPlugins = {}): ChatBridgeGlobal {
  return createPlainGlobal(win, { recorder: createRecorder, ...plugins });
}
