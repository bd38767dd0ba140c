/**
 * The inbound traffic the throughput figure replays: what a WebView running the bridge sees.
 * Deterministic (seeded), all strings, so bare JSON.parse can be timed on the very same text.
 *
 * Mix: 30% host commands (sendMessage, getConversation, init; via ChatBridge.receive as
 * evaluateJavascript hands them, and posted as 'chat-bridge:' text or a bare envelope), 30%
 * widget events, 30% foreign traffic (webpack, dev tools, JSON-RPC wallets, setImmediate
 * polyfills, messages from other origins), 10% malformed (bad JSON, wrong shapes, bad params).
 */

import { seededRandom } from '../dist/esm/replay.js';

export const PAGE_ORIGIN = 'https://app.example.test';
export const API_ORIGIN = 'https://chat.example.test';
const FOREIGN_ORIGINS = ['https://ads.example.net', 'https://www.youtube.com', ''];

/** The replay's seeded generator (mulberry32): every run and every machine sees the same traffic. */
export const seeded = seededRandom;

const WORDS =
  'hello thanks order delivery refund please when where account password reset invoice payment card shipping address tracking number yesterday today tomorrow help agent support question problem working broken update app version'.split(
    ' ',
  );

/**
 * @typedef {{ kind: 'command' | 'widget' | 'foreign' | 'malformed', via: 'receive' | 'post',
 *   data: string, origin: string, json: string }} Inbound
 *   via: ChatBridge.receive or a window `message` event; json: the text a bare handler would JSON.parse
 *   (the data without its 'chatwoot-widget:' / 'chat-bridge:' prefix).
 */

/** @param {number} count @param {number} [seed] @returns {Inbound[]} */
export function makeTraffic(count, seed = 1) {
  const random = seeded(seed);
  const pick = (/** @type {readonly any[]} */ list) => list[Math.floor(random() * list.length)];
  const sentence = (min, max) => {
    const words = [];
    const length = min + Math.floor(random() * (max - min));
    while (words.join(' ').length < length) words.push(pick(WORDS));
    return words.join(' ');
  };
  let nextId = 0;
  const id = () => `cmd-${(nextId++).toString(36)}`;

  /** @type {Array<() => Inbound>} */
  const commands = [
    () => received('command', { id: id(), method: 'sendMessage', params: { content: sentence(8, 240) } }),
    () =>
      received('command', {
        id: id(),
        method: 'sendMessage',
        params: { content: sentence(8, 120), messageId: `m-${nextId}-${Math.floor(random() * 1e9)}` },
      }),
    () => posted('command', 'chat-bridge:', { id: id(), method: 'sendMessage', params: { content: sentence(8, 160) } }),
    () =>
      received('command', {
        id: id(),
        method: 'getConversation',
        params: { name: 'Ada Lovelace', email: 'ada@example.com' },
      }),
    () => posted('command', '', { id: id(), method: 'getConversation' }),
    () => received('command', { id: id(), method: 'init' }),
  ];
  const widgetEvents = [
    () => ({
      event: 'loaded',
      config: {
        locale: 'en',
        hideMessageBubble: false,
        position: 'right',
        websiteToken: 'wt_widget_public',
        widgetColor: '#1f93ff',
        darkMode: 'light',
      },
    }),
    () => ({
      event: 'onMessage',
      data: {
        id: Math.floor(random() * 1e6),
        content: sentence(8, 200),
        message_type: 1,
        content_type: 'text',
        created_at: 1760000000 + Math.floor(random() * 1e5),
        conversation_id: 42,
        sender: { id: 7, name: 'Support agent', avatar_url: 'https://chat.example.test/avatars/7.png', type: 'user' },
      },
    }),
    () => ({ event: 'unreadCount', count: Math.floor(random() * 9) }),
    () => ({ event: 'toggleBubbleVisibility', showBubble: random() < 0.5 }),
    () => ({ event: 'setUnreadMode', unreadMessageCount: 1 }),
    () => ({ event: 'resize', height: 400 + Math.floor(random() * 300) }),
  ];
  const foreign = [
    () => foreignText(`webpackHotUpdate${Math.floor(random() * 1e8).toString(16)}`),
    () => foreignJson({ type: 'webpackOk' }),
    () => foreignJson({ type: 'webpackProgress', data: { percent: Math.floor(random() * 100), msg: 'building' } }),
    () =>
      foreignJson({
        source: 'react-devtools-content-script',
        payload: {
          event: 'inspectedElement',
          payload: { id: 12, type: 'full-data', value: { props: { children: sentence(10, 60) } } },
        },
      }),
    () => foreignJson({ jsonrpc: '2.0', id: String(nextId++), method: 'eth_chainId', params: [] }),
    () => foreignText(`setImmediate$${random()}$${Math.floor(random() * 100)}`),
    () => ({
      kind: 'foreign',
      via: 'post',
      data: 'chatwoot-widget:' + JSON.stringify({ event: 'loaded' }),
      json: JSON.stringify({ event: 'loaded' }),
      origin: pick(FOREIGN_ORIGINS.slice(0, 2)),
    }),
    () => foreignJson({ event: 'command', func: 'playVideo', args: [] }, pick(FOREIGN_ORIGINS)),
  ];
  const malformed = [
    () => ({
      kind: 'malformed',
      via: 'post',
      data: 'chatwoot-widget:{"event":"loaded","config":{"locale":"en"',
      json: '{"event":"loaded","config":{"locale":"en"',
      origin: API_ORIGIN,
    }),
    () => widget('malformed', { evnt: 'loaded' }),
    () => widget('malformed', { event: '' }),
    () => ({
      kind: 'malformed',
      via: 'receive',
      data: '{"id":"x1","method":"sendMessage","params":{"content":"hi"',
      json: '{"id":"x1","method":"sendMessage","params":{"content":"hi"',
      origin: '',
    }),
    () => received('malformed', { id: 42, method: 'sendMessage' }),
    () => posted('malformed', 'chat-bridge:', { id: id() }),
    () => received('malformed', { id: id(), method: 'sendMessage', params: { content: 42 } }),
    () => received('malformed', { id: id(), method: 'sendMesage', params: { content: 'typo in the method' } }),
  ];

  /** @returns {Inbound} */
  function received(kind, envelope) {
    const json = JSON.stringify(envelope);
    return { kind, via: 'receive', data: json, json, origin: '' };
  }
  /** @returns {Inbound} */
  function posted(kind, prefix, envelope) {
    const json = JSON.stringify(envelope);
    return { kind, via: 'post', data: prefix + json, json, origin: PAGE_ORIGIN };
  }
  /** @returns {Inbound} */
  function widget(kind, body) {
    const json = JSON.stringify(body);
    return { kind, via: 'post', data: 'chatwoot-widget:' + json, json, origin: API_ORIGIN };
  }
  /** @returns {Inbound} */
  function foreignText(text) {
    return { kind: 'foreign', via: 'post', data: text, json: text, origin: PAGE_ORIGIN };
  }
  /** @returns {Inbound} */
  function foreignJson(body, origin = PAGE_ORIGIN) {
    const json = JSON.stringify(body);
    return { kind: 'foreign', via: 'post', data: json, json, origin };
  }

  /** @type {Inbound[]} */
  const traffic = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.3) traffic.push(pick(commands)());
    else if (roll < 0.6) traffic.push(widget('widget', pick(widgetEvents)()));
    else if (roll < 0.9) traffic.push(pick(foreign)());
    else traffic.push(pick(malformed)());
  }
  return traffic;
}
