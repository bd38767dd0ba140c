/**
 * Keeps the bridge's traffic in the fixture format (docs/replay-and-recording.md), so a session captured
 * in an app replays as it is: `post`, `host`, `respond`, `fail`, `hang`, `offline`, `online` and
 * `advance` steps, with every token value replaced by a placeholder. Replaying the recording
 * gives the host the same messages, in the same order, with the same codes and texts.
 *
 * The replay needs each answer queued before the step that makes its request, so answers are
 * kept with the input step during which their request started and written just before it.
 * Foreign traffic (messages that are not ours) is not kept: it changes nothing, and it is other
 * code's data.
 *
 * Connectivity is written as the bridge saw it: the `offline` / `online` events it got, whatever
 * `navigator.onLine` said (the demo's Offline switch and some WebViews fire the events while it
 * stays true). While the recording says offline, the replay fails every request at once and uses
 * up no answer, so a request made then is written only when the replay would not do the same
 * (as a `//` note: the fixture format cannot say "offline, yet answered").
 *
 * Its hooks (posted, host, the environment it wraps, whose answers it keeps) share one state, a
 * `Recording`: the step groups they append to, the replay's connectivity and the time of the last input.
 */
import type { Environment, HttpResponse } from '../environment.js';
import { REDACTED } from '../protocol/limits.js';
import { CREDENTIAL_NAME, parseJson } from '../protocol/safe-json.js';
import type { Redactor } from '../outbound/redact.js';
import { compactCommand } from './compact.js';
import type { Recorder, RecorderFactory, RecorderSetup } from './plug-in.js';

type Step = Record<string, unknown>;
/** A recorded line: a step, or a note written as a `//` comment. */
type Line = Step | { note: string };
/**
 * An input step (the first group: what came before any input) with the answers to the requests
 * that started after it came, which the replay needs queued before it.
 */
interface Group {
  answers: Array<Line | undefined>;
  steps: Line[];
}

/** The recording so far: the one state the recorder's hooks share. */
interface Recording {
  /** The first group holds what came before any input; each input step starts a new one. */
  readonly groups: Group[];
  /** Whether the replay will be online at this point of the recording. */
  replayOnline: boolean;
  /** When the last input step came: the next is written after an `advance` of the time between. */
  lastInputAt: number;
}

/** The group of the input step under way: a request that starts now keeps its answer there. */
const lastGroup = (recording: Recording) => recording.groups[recording.groups.length - 1] as Group;

export const createRecorder: RecorderFactory = ({ rawOptions, options, redactor, env }): Recorder => {
  const config = recordedConfig(rawOptions, options.allowedOrigins, redactor);
  const now = env.now;
  // A replay starts online; a page installed while offline says so first.
  const online = env.isOnline();
  const recording: Recording = {
    groups: [{ answers: [], steps: online ? [] : [{ step: 'offline' }] }],
    replayOnline: online,
    lastInputAt: now(),
  };

  // Each step is scrubbed as it is kept (a token forgotten later is gone from it already) and
  // again when the recording is taken (a token learned later is gone too).
  const input = (step: Step) => {
    const gap = now() - recording.lastInputAt;
    recording.lastInputAt += gap;
    const steps: Step[] = gap > 0 ? [{ step: 'advance', ms: gap }, redactor.scrub(step)] : [redactor.scrub(step)];
    recording.groups.push({ answers: [], steps });
  };

  return {
    env: {
      ...env,
      // Uploads go through the recorded fetch, without progress events: the fixture format has
      // no step for upload progress, and the replay of a recording gives the same deliveries.
      upload: undefined,
      fetch: recordedFetch(env, recording, redactor, new URL(options.baseUrl).pathname.replace(/\/$/, '')),
      onConnectivityChange(listener) {
        return env.onConnectivityChange((online) => {
          recording.replayOnline = online;
          input({ step: online ? 'online' : 'offline' });
          listener(online);
        });
      },
    },
    restored: (count) =>
      void lastGroup(recording).steps.push({
        note: `${count} message(s) an earlier page left in the outbox were waiting at install; a replay starts without them`,
      }),
    posted: (message) => input({ step: 'post', origin: message.origin, data: message.data }),
    host: (data, verdict) =>
      input({ step: 'host', data: verdict.kind === 'command' ? compactCommand(verdict.command) : data }),
    text: () => fixtureText(config, recording.groups, redactor),
  };
};

/**
 * The options as given, for the `config` step: without `record` and without credentials. A
 * replay's page is the backend's origin, so this page's own origin (allowed by default) is
 * written out; otherwise the widget's messages from it would be dropped in the replay.
 */
function recordedConfig(
  rawOptions: RecorderSetup['rawOptions'],
  allowedOrigins: RecorderSetup['options']['allowedOrigins'],
  redactor: Redactor,
): Record<string, unknown> {
  const config = withoutCredentials(
    redactor,
    JSON.stringify(rawOptions, (key, value: unknown) => (key === 'record' ? undefined : value)),
    true,
  ) as Record<string, unknown>;
  if (config['allowedOrigins'] === undefined) {
    config['allowedOrigins'] = allowedOrigins === '*' ? '*' : [...allowedOrigins];
  }
  return config;
}

/**
 * A copy through JSON with every credential field (`token`, `secret`, `password` in its name,
 * at any depth) blanked and its value learned by the redactor, and, with `urls`, the
 * `user:password@` taken out of every URL.
 */
function withoutCredentials(redactor: Redactor, text: string, urls = false): unknown {
  return JSON.parse(text, (key, value: unknown) => {
    if (typeof value !== 'string') return value;
    if (!CREDENTIAL_NAME.test(key)) return urls ? value.replace(/\/\/[^/?#@\s]*@/g, '//') : value;
    redactor.add(value, 'recorded');
    return REDACTED;
  });
}

/**
 * The environment's fetch, each request's outcome kept as the answer the replay queues for it:
 * `respond`, `fail`, or `hang` (until it settles, a request is one that never got an answer: a
 * recording taken now replays it as hanging, as it does live). While the replay is offline it
 * fails every request at once and uses up no answer, so then only an outcome it would not
 * reproduce is written, as a note.
 */
function recordedFetch(
  env: Environment,
  recording: Recording,
  redactor: Redactor,
  basePath: string,
): Environment['fetch'] {
  const pathOf = (url: string) => {
    const { pathname } = new URL(url);
    return pathname.startsWith(basePath) ? pathname.slice(basePath.length) || '/' : pathname;
  };
  return async (url, request): Promise<HttpResponse> => {
    const group = lastGroup(recording);
    const base = { method: request.method, path: pathOf(url) };
    const online = recording.replayOnline;
    const slot = group.answers.push(online ? { step: 'hang', ...base } : undefined) - 1;
    const differs = (live: string) =>
      void (group.answers[slot] = {
        note: `${base.method} ${base.path} ${live} while offline; the replay fails it at once`,
      });
    try {
      const response = await env.fetch(url, request);
      const text = await response.text();
      const answer: Step = { step: 'respond', ...base, status: response.status, body: bodyOf(redactor, text) };
      const retryAfter = response.headers.get('Retry-After');
      if (retryAfter !== null) answer['headers'] = { 'Retry-After': replayableRetryAfter(retryAfter, env.now()) };
      if (online) group.answers[slot] = redactor.scrub(answer);
      else differs(`answered ${response.status}`);
      return { status: response.status, headers: response.headers, text: async () => text };
    } catch (thrown) {
      // Aborted by the bridge (its timeout, or destroy) before any answer came: a hang.
      const aborted = request.signal?.aborted === true;
      if (online) group.answers[slot] = aborted ? { step: 'hang', ...base } : { step: 'fail', ...base };
      else if (aborted) differs('got no answer');
      // Offline and failed: the replay fails it by itself and uses up no answer.
      throw thrown;
    }
  };
}

/** A response body as the bridge read it, without credentials. */
function bodyOf(redactor: Redactor, text: string): unknown {
  // As the bridge read it: parts past MAX_DEPTH withheld (the replay reads them the same way),
  // so nothing recursive below meets more nesting than that.
  const parsed = parseJson(text);
  const body = parsed.ok ? withoutCredentials(redactor, JSON.stringify(parsed.value)) : text;
  // A JSON string would replay as its contents (fixtures send string bodies as-is): keep the text.
  return typeof body === 'string' ? text : body;
}

/** The recording as fixture JSON Lines: the config, then each group's answers before its steps. */
function fixtureText(config: Record<string, unknown>, groups: Group[], redactor: Redactor): string {
  const lines: Line[] = [{ step: 'config', options: config }];
  for (const group of groups) {
    for (const answer of group.answers) if (answer !== undefined) lines.push(answer);
    lines.push(...group.steps);
  }
  return (
    lines
      .map((line) =>
        'note' in line ? `// ${redactor.scrub(String(line.note))}` : JSON.stringify(redactor.scrub(line)),
      )
      .join('\n') + '\n'
  );
}

/**
 * A Retry-After given as an HTTP date becomes the seconds it meant: the replay's clock starts at
 * 0, not at the recording's date, so the date itself would read as decades of waiting.
 */
function replayableRetryAfter(value: string, now: number): string {
  if (/^\s*\d+\s*$/.test(value)) return value;
  const date = Date.parse(value);
  return Number.isNaN(date) ? value : String(Math.max(0, Math.ceil((date - now) / 1000)));
}
