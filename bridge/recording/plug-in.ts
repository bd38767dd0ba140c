/**
 * The one point where a recorder plugs into a bridge. Types only: the injected bundle
 * (`dist/chat-bridge.js`) carries no recorder, so `record: true` costs its users nothing; the
 * debug bundle (`dist/chat-bridge.debug.js`, entry `startup/global.debug.ts`) and the ES module entry
 * (`index.ts`) pass `createRecorder` in through `CreateBridgeSettings.recorder`.
 */
import type { Environment, InboundMessage } from '../environment.js';
import type { Verdict } from '../inbound/classify.js';
import type { ResolvedOptions } from '../options.js';
import type { Redactor } from '../outbound/redact.js';

export interface RecorderSetup {
  /** The options as given, for the recording's `config` step. */
  rawOptions: Record<string, unknown>;
  options: ResolvedOptions;
  /** The bridge's own redactor: it knows every token the bridge has seen so far. */
  redactor: Redactor;
  /** The environment the bridge would use without a recorder. */
  env: Environment;
}

export interface Recorder {
  /** The environment the bridge uses instead: its fetch and connectivity changes are recorded. */
  readonly env: Environment;
  /** A posted message the bridge did not ignore. */
  posted(message: InboundMessage): void;
  /** Data the host handed to `receive`, with the bridge's verdict on it. */
  host(data: unknown, verdict: Verdict): void;
  /**
   * Messages an earlier page left in storage were waiting at install. The fixture format has no
   * step for them, so the recording says so in a `//` line instead of replaying otherwise in silence.
   */
  restored(count: number): void;
  /** The traffic so far, as fixture JSON Lines. */
  text(): string;
}

export type RecorderFactory = (setup: RecorderSetup) => Recorder;
