/**
 * Host command dispatch: command lookup, per-command params validation, the per-command
 * timeout, and exactly one answer per command id (the bridge turns an answer into the
 * response, plus the error event for a failure).
 */
import type * as z from 'zod/mini';
import { errorEvent, toErrorEvent, type BridgeCode } from '../protocol/errors.js';
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
  /** What the command's `params` must be. */
  schema: z.ZodMiniType<Params>;
  /** May throw before it returns its promise: the command fails alike. */
  run(params: Params, context: CommandContext): Promise<Result>;
  /**
   * Answered by something with its own guarantees, not by the command timeout: `sendMessage`
   * is answered when its message is sent or fails for good, however long that takes.
   */
  untimed?: boolean | undefined;
}

export type CommandTable = Record<string, CommandSpec<any>>;

/** Why a bridge is destroyed when it is installed again for another inbox: untimed commands are answered too. */
export const INBOX_SWITCHED = 'installed for another inbox';

export interface CommandRunner {
  run(command: HostCommand): void;
  /** Commands started and not yet answered. */
  readonly pending: number;
  /**
   * Answers every pending command with `network_error` ("the bridge was <why>"), so no host call
   * waits for an answer that will never come, then stops. Untimed commands (`sendMessage`) are
   * left out: their message stays queued and is reported by its message-state events, by the next
   * bridge of the same inbox. For `INBOX_SWITCHED` no bridge here will report them: they are
   * answered `inbox_switched` (the message stays queued for its own inbox).
   */
  destroy(why?: string): void;
}

/**
 * @param commands the host commands by name (the wire field `method` of a command names one)
 * @param answer called once per command with how it ended
 */
export function createCommandRunner(
  commands: CommandTable,
  timeoutMs: number,
  timers: Timers,
  answer: (id: string, outcome: Outcome) => void,
): CommandRunner {
  /**
   * What `destroy` does to each command started and not yet answered (a command's own entry,
   * since ids come from the host and may repeat).
   */
  const pending = new Set<(why: string) => void>();

  return {
    run(command) {
      const { id, method: name } = command;
      const failure = (code: BridgeCode, text: string, where = name): Outcome => ({
        ok: false,
        error: errorEvent(code, `[${where}] ${text}`),
      });
      if (!Object.prototype.hasOwnProperty.call(commands, name)) {
        const known = Object.keys(commands).join(', ');
        return answer(id, failure('unknown_method', `unknown method "${name}"; known: ${known}`, 'host command'));
      }
      const spec = commands[name] as CommandSpec<unknown>; // an own property, so present
      const params = spec.schema.safeParse(command.params || {});
      if (!params.success) return answer(id, failure('parse_error', `invalid params: ${describeIssues(params.error)}`));

      const controller = new AbortController();
      /** Answers (unless `outcome` is missing), clears the timeout and aborts the command's signal: its requests stop. */
      const finish = (outcome?: Outcome) => {
        if (!pending.delete(abandon)) return; // already answered (timed out, or the bridge was destroyed)
        // Answered first: aborting costs about 0.05 ms (the abort's DOMException), which the
        // host need not wait for; nothing can start a request in between.
        if (outcome) answer(id, outcome);
        timers.clearTimeout(timer);
        controller.abort();
      };
      // An untimed command's message stays queued and is reported by its message-state events.
      const abandon = (why: string) =>
        finish(
          !spec.untimed
            ? failure('network_error', `bridge ${why}`)
            : why === INBOX_SWITCHED
              ? failure('inbox_switched', `bridge ${why}`) // the code says what to do: docs/reference.md
              : undefined,
        );
      const timer = spec.untimed
        ? undefined
        : timers.setTimeout(() => finish(failure('network_error', `no answer within ${timeoutMs} ms`)), timeoutMs);
      pending.add(abandon);
      const failed = (thrown: unknown) =>
        finish({ ok: false, error: toErrorEvent(thrown, 'server_error', `[${name}]`) });
      try {
        spec.run(params.data, { id, signal: controller.signal }).then((result) => finish({ ok: true, result }), failed);
      } catch (thrown) {
        // A run that throws before it returns its promise (not an async function) fails alike.
        failed(thrown);
      }
    },
    get pending() {
      return pending.size;
    },
    destroy(why = 'destroyed') {
      pending.forEach((abandon) => abandon(why));
    },
  };
}
