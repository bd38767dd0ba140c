/**
 * One running bridge, wiring the environment to the pipeline in one direction: inbound →
 * dispatch (command runner, host commands) → backend (outbox, api, http) → outbound (channel, adapter).
 * createBridge sets the parts up (Parts, shared by the pieces below: the core in core.ts, the
 * verdicts' route, the guarded listeners) and is the public object. docs/architecture.md follows
 * one message through it.
 */
import { detectHost } from './outbound/adapters/index.js';
import { guardOf, onPageCall } from './outbound/channel.js';
import { createEmitter, type Emitter } from './outbound/emitter.js';
import { CONTRACT } from './backend/profile.js';
import { CHATWOOT } from './backend/chatwoot-profile.js';
import { noop, trackedTimers, type Environment, type InboundMessage } from './environment.js';
import { errorEvent } from './protocol/errors.js';
import { classifyHostData, classifyPosted, type Verdict } from './inbound/classify.js';
import type { OutboundMessage } from './protocol/messages.js';
import { OptionsError, type ResolvedOptions } from './options.js';
import { type HostName } from './protocol/bridge-options.js';
import type { Recorder, RecorderFactory } from './recording/plug-in.js';
import { createRedactor, type Redactor } from './outbound/redact.js';
import { widgetErrorEvent } from './inbound/widget-error.js';
import { messageIds, sourceId, withMessageId } from './protocol/message-ids.js';
import { createCore, type Core, type CoreSettings } from './core.js';

export const VERSION = '0.1.0';

/**
 * dist/chat-bridge.js carries no recorder (checkRecorder refuses `record: true` there), so its
 * build defines CHAT_BRIDGE_WITHOUT_RECORDER and the recording hooks (below, and `recording()` in
 * startup/) leave that bundle. Undefined everywhere else: the debug bundle, the ES modules, the tests.
 */
declare const CHAT_BRIDGE_WITHOUT_RECORDER: boolean | undefined;
export const RECORDER_ALLOWED = typeof CHAT_BRIDGE_WITHOUT_RECORDER === 'undefined';

export interface Bridge {
  readonly version: string;
  readonly host: HostName;
  /** Hands the bridge one host command: a JSON string or an object `{id, method, params?}`. */
  receive(data: unknown): void;
  /**
   * Calls back with every message the host is sent (after redaction). Returns the unsubscribe. A
   * function added twice is called once, as EventTarget does.
   */
  on(listener: (message: OutboundMessage) => void): () => void;
  /** The traffic so far as fixture JSON Lines, tokens replaced; empty unless created with `record: true`. */
  recording(): string;
  /** Commands started and not yet answered, and messages waiting in the outbox. */
  stats(): { pendingCommands: number; outbox: number; undelivered: number };
  /**
   * Answers every command still running with `network_error` ("the bridge was <why>", default
   * "destroyed"), then removes every listener and timer. Messages in the outbox stay queued.
   * Safe to call twice.
   */
  destroy(why?: string): void;
}

export interface CreateBridgeSettings {
  /** The options as given, for the recording's `config` step. */
  rawOptions?: Record<string, unknown>;
  /** Deliver to these hosts' channels instead of the one configured (the replay's `--host all`). */
  hosts?: HostName[];
  /**
   * What `record: true` records with. The injected bundle leaves it out to stay small; the debug
   * bundle and the ES module entry pass `createRecorder`.
   */
  recorder?: RecorderFactory;
  /** Events and commands a starter dropped over its limits (startup/starter.ts): told after `ready`. */
  dropped?: number;
  /** Another bridge ran in this window before (running or destroyed): it may still write a message it was queuing (orphans.ts). */
  replaces?: boolean;
}

/**
 * `record: true` without a recorder (the injected bundle has none) is refused at once, not found
 * out from an empty recording after the bug was reproduced.
 */
export function checkRecorder(options: ResolvedOptions, settings: CreateBridgeSettings): void {
  if (options.record && settings.recorder === undefined) {
    throw new OptionsError('record', 'needs dist/chat-bridge.debug.js');
  }
}

/**
 * One bridge's parts, made once by createBridge and shared by its pieces: the core's settings
 * (core.ts: the environment with the bridge's own timers, and more), and what the inbound side adds.
 */
interface Parts extends CoreSettings {
  emit: Emitter['emit'];
  /** A window `offline` event means offline even where navigator.onLine stays true (some WebViews). */
  offline?: boolean;
  /** The core, once built. */
  built?: Core;
}

export function createBridge(
  options: ResolvedOptions,
  baseEnv: Environment,
  settings: CreateBridgeSettings = {},
): Bridge {
  // The bundle's only caller, install, checked already (before replacing the running bridge).
  if (RECORDER_ALLOWED) checkRecorder(options, settings);
  const host = options.host || detectHost(baseEnv.scope, options);
  const timers = trackedTimers(baseEnv);
  const redactor = createRedactor(baseEnv.now);
  redactor.add(options.websiteToken, 'website');
  // Never in anything the host is sent but the prefix the channel puts before it.
  redactor.add(options.channelSecret, 'channel');
  // The backend's profile, chosen once: every call, credential and failure reading follows it.
  const profile = options.backend === 'chatwoot' ? CHATWOOT : CONTRACT;
  // The widget's contact, where the page gives one: Chatwoot's SDKs load
  // `/widget?website_token=…&cw_conversation=<token>` (app/controllers/widgets_controller.rb).
  const contactToken = profile.widgetContact ? pageConversation(baseEnv.scope) : undefined;
  redactor.add(contactToken, 'page');
  const recorder = recorderFor(options, baseEnv, settings, redactor);
  const env = recorder ? recorder.env : baseEnv;
  const emitter = createEmitter(settings.hosts || [host], env.scope, options, timers, redactor);
  const parts: Parts = {
    ...env,
    ...timers,
    resolved: options,
    profile,
    redactor,
    emit: emitter.emit,
    answer: emitter.answer,
    inFlight: new Set<AbortController>(),
    // This page's id: in its record keys and its lock, and the start of the message ids it makes.
    page: sourceId(env.now(), env.random()),
    contactToken,
    isOnline: () => !parts.offline && env.isOnline(),
    restored: recorder ? (count: number) => recorder.restored(count) : noop,
    replaces: settings.replaces,
  };
  const { fromHost, unsubscribers } = createInbound(parts, createRouter(parts, emitter), recorder);

  let destroyed = false;
  emitter.emit({ type: 'ready' });
  if (settings.dropped) emitter.emit(errorEvent('channel_error', `[starter] ${settings.dropped} event(s) dropped`));
  // Messages a previous page left in the outbox go out next, in order: a task of their own, so
  // install (at document start, before the page's scripts) does not open storage.
  timers.setTimeout(() => core(parts).outbox.drain(), 0);

  return {
    version: VERSION,
    host,
    receive(data) {
      if (!destroyed) fromHost(data);
    },
    on: emitter.on,
    recording: () => (recorder ? recorder.text() : ''),
    stats: () => ({
      pendingCommands: parts.built ? parts.built.runner.pending : 0,
      outbox: parts.built ? parts.built.outbox.size : 0,
      undelivered: emitter.undelivered,
    }),
    destroy(why) {
      if (destroyed) return;
      destroyed = true;
      unsubscribers.forEach((unsubscribe) => unsubscribe());
      if (parts.built) {
        parts.built.runner.destroy(why);
        parts.built.outbox.destroy();
      }
      emitter.destroy();
      timers.clearAll();
      parts.inFlight.forEach((controller) => controller.abort());
    },
  };
}

/** What `record: true` records with, where the bundle has a recorder: told the redactor, it wraps the environment. */
function recorderFor(
  options: ResolvedOptions,
  env: Environment,
  settings: CreateBridgeSettings,
  redactor: Redactor,
): Recorder | undefined {
  return RECORDER_ALLOWED && options.record && settings.recorder
    ? settings.recorder({ rawOptions: settings.rawOptions || { baseUrl: options.baseUrl }, options, redactor, env })
    : undefined;
}

/** The core, built at its first use (core.ts says why). */
const core = (parts: Parts) => parts.built || (parts.built = createCore(parts));

/**
 * Where each verdict goes: an invalid message answered or reported, a widget event emitted (and
 * its contact learned), a command run by the core. An `ignored` verdict matches no case: nothing to do.
 */
function createRouter(parts: Parts, emitter: Emitter) {
  const { emit, answer } = parts;

  /**
   * The widget's conversation token: the contact the bridge sends as, where the profile has the
   * widget's contact. To the host past the redactor on purpose, where it opted in: the one message
   * meant to carry a token, and only to the channels.
   */
  const widgetContact = (token: string | false | undefined) => {
    if (!token) return;
    // Used where the profile has the widget's contact (api.ts `useContactToken`).
    parts.contactToken = token;
    if (parts.built) parts.built.api.useContactToken(token);
    if (parts.resolved.forwardConversationToken) emitter.deliver({ type: 'conversationToken', token });
  };

  return (verdict: Verdict) => {
    switch (verdict.kind) {
      case 'invalid':
        return verdict.id !== undefined ? answer(verdict.id, { ok: false, error: verdict.error }) : emit(verdict.error);
      case 'widget':
        emit(
          verdict.event === 'error'
            ? widgetErrorEvent(verdict.data)
            : { type: 'widget', event: verdict.event, data: verdict.data },
        );
        return widgetContact(verdict.conversationToken);
      case 'command':
        return core(parts).runner.run(verdict.command);
    }
  };
}

/**
 * The inbound side: each posted message and host command classified and its verdict handled, in
 * listeners that nothing throws out of. Returns the host commands' way in and the listeners' removals.
 */
function createInbound(parts: Parts, handle: (verdict: Verdict) => void, recorder: Recorder | undefined) {
  const { resolved: options, redactor, emit } = parts;
  const newMessageId = messageIds(parts.page);

  // Nothing may throw out of a listener: the page's other code and the next message must not
  // pay for one bad message.
  const guarded = (work: () => void) => {
    try {
      work();
    } catch (thrown) {
      emit(errorEvent('parse_error', `[bridge] message not handled (${String(((thrown || {}) as Error).name)})`));
    }
  };

  /** Whether the message was the bridge's (not ignored). */
  const posted = (message: InboundMessage) => {
    let ours = false;
    guarded(() => {
      const verdict = classifyPosted(message, options);
      ours = verdict.kind !== 'ignored';
      // Learned before anything is recorded or sent, so no copy of the message keeps them.
      if (verdict.kind === 'widget') verdict.secrets.forEach((secret) => redactor.add(secret, 'widget'));
      withMessageId(verdict, newMessageId);
      if (ours && recorder) recorder.posted(message);
      handle(verdict);
    });
    return ours;
  };
  // A page script's direct call of a channel (channel.ts) is a same-realm message, as a synthetic
  // event is: origin "". Where the widget looks for `window.ReactNativeWebView` and there is none,
  // it finds a stand-in leading here. What is not the bridge's goes on to the channel.
  if (parts.scope['ReactNativeWebView'] === undefined) parts.scope['ReactNativeWebView'] = { postMessage: guardOf() };

  return {
    fromHost: (data: unknown) =>
      guarded(() => {
        const verdict = classifyHostData(data, options);
        withMessageId(verdict, newMessageId);
        if (recorder) recorder.host(data, verdict);
        handle(verdict);
      }),
    unsubscribers: [
      onPageCall((data) => posted({ data, origin: '' })),
      parts.onMessage(posted),
      parts.onConnectivityChange((online) =>
        guarded(() => {
          parts.offline = !online;
          if (online) core(parts).outbox.drain(true);
        }),
      ),
      parts.onVisible ? parts.onVisible(() => core(parts).outbox.drain(true)) : noop,
    ],
  };
}

/** The page's own `cw_conversation` query parameter, where it has one (never on another scope). */
function pageConversation(scope: Record<string, unknown>): string | undefined {
  try {
    return new URLSearchParams(String((scope['location'] as Location).search)).get('cw_conversation') || undefined;
  } catch {
    return undefined;
  }
}
