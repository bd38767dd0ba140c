/**
 * The steps the delivery specs take on a page of either engine (a Chromium tab or a WebKit view):
 * send a message under its own id, wait for one of its states, read the error codes it was told.
 */
import type { OutboundMessage } from '../../bridge/protocol/messages.js';
import type { ScenarioPage } from './scenario-page.js';

/** What both harnesses' pages offer beyond a scenario page: a command sent without waiting, and every message so far. */
export interface DeliveryPage extends Pick<ScenarioPage, 'waitFor'> {
  send(method: string, params?: Record<string, unknown>): Promise<string>;
  messages(): Promise<OutboundMessage[]>;
}

/** `sendMessage` with `content` as its text and its `messageId`. */
export const sendMessage = (tab: DeliveryPage, content: string) =>
  tab.send('sendMessage', { content, messageId: content });

/** Waits for the message's `message` event in state `value`. */
export const messageState = (tab: DeliveryPage, messageId: string, value: string, timeoutMs = 10_000) =>
  tab.waitFor({ type: 'message', messageId, state: value }, { timeoutMs });

/** The codes of every error event the page delivered, in order. */
export const errorCodes = async (tab: DeliveryPage) =>
  (await tab.messages()).flatMap((message) => (message.type === 'error' ? [message.code] : []));
