/**
 * Entry of the injectable bundle, `dist/chat-bridge.js`: `window.ChatBridge` without a recorder
 * (`record: true` throws an OptionsError that points to the debug bundle).
 */
import { exposeGlobal } from './install.js';

exposeGlobal({});
