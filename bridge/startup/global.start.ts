/**
 * Entry of the starter, `dist/chat-bridge.start.js` (starter.ts): for hosts that inject it at
 * document start and the bundle once the page has loaded.
 */
import { exposeStarter } from './starter.js';

exposeStarter();
