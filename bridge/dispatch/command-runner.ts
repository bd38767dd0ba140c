/**
 * Host command dispatch: command lookup, per-command params validation, the per-command
 * timeout, and exactly one answer per command id (the bridge turns an answer into the
 * response, plus the error event for a failure).
 */
import type * as z from 'zod/mini';
import { errorEvent, toErrorEvent, type ErrorEvent } from '../protocol/errors.js';
import type { Timers } from '../environment.js';
import type { Outcome } from '../protocol/messages.js';
import { describeIssues } from '../inbound/describe-issues.js';
import type { HostCommand } from '../protocol/schemas.js';

export interface CommandContext {
  readonly id: string;
  /** Aborted once the command is answered (result, error or timeout): its remaining work stops. */
  readonly signal: AbortSignal;
}

export interface CommandSpec<Params, Result = unknown> {
  params: z.ZodMiniType<Params>;
  run(params: Params, context: CommandContext): Promise<Result>;
  /**
   * Answered by something with its own guarantees, not by the command timeout: `sendMessage`
   * is answered when its message is sent or fails for good, however long that takes.
   */
  untimed?: boolean | undefined;
}

export type CommandTable = Record<string, CommandSpec<any>>;

export interface CommandRunner {
  run(command: HostCommand): void;
  /** Commands started and not yet answered. */
  readonly pending: number;
  /**
   * Answers every pending command with `network_error` ("the bridge was <why>"), so no host call
   * waits for an answer that will never come, then stops. Untimed commands (`sendMessage`) are
   * left out: their message stays queued and is reported by its message-state events.
   */
  destroy(why?: string): void;
}

interface RunnerSettings {
  /** The host commands by name (the wire field `method` of a command names one). */
  commands: CommandTable;
  timeoutMs: number;
  timers: Timers;
  /** Called once per command with how it ended. */
  answer(id: string, outcome: Outcome): void;
}

interface Pending {
  timer: unknown;
  finish(outcome: Outcome): void;
  name: string;
  untimed: boolean | undefined;
  controller: AbortController;
}

export function createCommandRunner({ commands, timeoutMs, timers, answer }: RunnerSettings): CommandRunner {
  /** Pending commands by a unique key (ids come from the host and may repeat). */
  const pending = new Map<number, Pending>();
  let nextKey = 0;

  const fail = (id: string, error: ErrorEvent) => answer(id, { ok: false, error });
  /** Clears the timeout and aborts the command's signal: its requests stop, no new one is made. */
  const stop = (entry: Pending) => {
    timers.clearTimeout(entry.timer);
    entry.controller.abort();
  };

  return {
    run(command) {
      const { id, method: name } = command;
      const spec = Object.prototype.hasOwnProperty.call(commands, name) ? commands[name] : undefined;
      if (spec === undefined) {
        fail(
          id,
          errorEvent(
            'unknown_method',
            `[host command] unknown method "${name}"; known methods: ${Object.keys(commands).join(', ')}`,
          ),
        );
        return;
      }
      const params = spec.params.safeParse(command.params || {});
      if (!params.success) {
        fail(id, errorEvent('parse_error', `[${name}] invalid params: ${describeIssues(params.error)}`));
        return;
      }

      const key = nextKey++;
      const finish = (outcome: Outcome) => {
        const entry = pending.get(key);
        if (entry === undefined) return; // already answered (timed out, or the bridge was destroyed)
        pending.delete(key);
        // Answered first: aborting costs about 0.05 ms (the abort's DOMException), which the
        // host need not wait for; nothing can start a request in between.
        answer(id, outcome);
        stop(entry);
      };
      const timer = spec.untimed
        ? undefined
        : timers.setTimeout(
            () =>
              finish({ ok: false, error: errorEvent('network_error', `[${name}] no answer within ${timeoutMs} ms`) }),
            timeoutMs,
          );
      const controller = new AbortController();
      pending.set(key, { timer, finish, name, untimed: spec.untimed, controller });
      const context: CommandContext = { id, signal: controller.signal };
      let running: Promise<unknown>;
      try {
        running = spec.run(params.data, context);
      } catch (thrown) {
        running = Promise.reject(thrown);
      }
      running.then(
        (result) => finish({ ok: true, result }),
        (thrown: unknown) => finish({ ok: false, error: toErrorEvent(thrown, 'server_error', `[${name}]`) }),
      );
    },
    get pending() {
      return pending.size;
    },
    destroy(why = 'destroyed') {
      for (const entry of [...pending.values()]) {
        if (entry.untimed) continue;
        const message = `[${entry.name}] not answered: the bridge was ${why}`;
        entry.finish({ ok: false, error: errorEvent('network_error', message) });
      }
      pending.forEach(stop);
      pending.clear();
    },
  };
}
