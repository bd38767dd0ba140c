/**
 * The bridge's core: the API client, the outbox and the command runner, built together at the
 * first command, or in the task after install (which drains what a previous page left in the
 * outbox), whichever comes first (bridge.ts). Install runs at document start, before the page's
 * own scripts; compiling and running this part there would cost the page about half of install's
 * time, for nothing it needs yet.
 */
import { createApi, type BridgeApi } from './backend/api.js';
import { createHttp } from './backend/http.js';
import { createOutbox, type Outbox } from './backend/outbox.js';
import type { OutboxSettings } from './backend/outbox/settings.js';
import { inboxPrefix } from './backend/outbox-record.js';
import type { Profile } from './backend/profile.js';
import { createCommandRunner, type CommandRunner } from './dispatch/command-runner.js';
import { createHostCommands } from './dispatch/host-commands.js';
import type { Environment } from './environment.js';
import type { ResolvedOptions } from './options.js';
import type { Emitter } from './outbound/emitter.js';
import type { Redactor } from './outbound/redact.js';

export interface Core {
  outbox: Outbox;
  runner: CommandRunner;
  api: BridgeApi;
}

/**
 * What the core is built with: the environment with the bridge's own timers (which `destroy`
 * clears), and the bridge's parts as they are at its first use. The fields it shares with the
 * outbox's settings go on to the outbox as they are.
 */
export interface CoreSettings
  extends Environment, Pick<OutboxSettings, 'page' | 'isOnline' | 'emit' | 'restored' | 'replaces'> {
  resolved: ResolvedOptions;
  /** The backend's profile: every call, credential and failure reading follows it. */
  profile: Profile;
  /** Told every auth token the API is given, so that no message carries one. */
  redactor: Redactor;
  answer: Emitter['answer'];
  /** The controllers of the requests under way, which `destroy` aborts. */
  inFlight: Set<AbortController>;
  /** The widget's contact known so far, where the profile has one (a later one goes to the API itself). */
  contactToken: string | undefined;
}

export function createCore(settings: CoreSettings): Core {
  const { resolved: options, profile, contactToken } = settings;
  const api = createApi(
    createHttp(settings, options, settings.inFlight, profile.sign),
    options.websiteToken,
    (token) => settings.redactor.add(token, 'auth'),
    profile,
    settings.now,
  );
  if (contactToken) api.useContactToken(contactToken);
  const outbox = createOutbox({
    ...settings,
    prefix: inboxPrefix(options.baseUrl, options.websiteToken),
    maxFileSize: options.maxFileSize,
    fileTypes: profile.fileTypes,
    rateLimitPasses: profile.rateLimitPasses,
    send: api.sendMessage,
    reachable: api.reachable,
  });
  const runner = createCommandRunner(
    createHostCommands(api, outbox, options.maxFileSize, settings, profile.fileTypes),
    options.commandTimeout,
    settings,
    settings.answer,
  );
  return { outbox, runner, api };
}
