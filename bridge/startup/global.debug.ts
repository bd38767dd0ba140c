/**
 * Entry of the debug bundle, `dist/chat-bridge.debug.js`: the same `window.ChatBridge` as
 * `global.ts`, with the recorder that `record: true` needs. Kept out of the main bundle, which
 * every page load pays for, since only a developer reproducing a bug records.
 */
import { exposeGlobal } from './install.js';
import { createRecorder } from '../recording/recorder.js';

exposeGlobal({ recorder: createRecorder });
