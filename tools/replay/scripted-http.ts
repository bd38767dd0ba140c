/**
 * HTTP for replays: answers come from the fixture's `respond`, `fail` and `hang` steps, first in,
 * first out per method and path; every request becomes an output line.
 */
import { REDACTED, type HttpRequest, type HttpResponse } from '../../bridge/index.js';
import { pathOnly } from './fixture.js';
import { jsonText } from './json-text.js';

type Answer =
  | { kind: 'respond'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'fail' }
  | { kind: 'hang' };

export interface RequestLine {
  kind: 'request';
  at: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: unknown;
  offline?: true;
  /** Made by the bridge on its own after the last step, with no answer queued: it failed as a network error. */
  unanswered?: true;
}

export interface ScriptedHttp {
  queue(method: string, path: string, answer: Answer): void;
  fetch(url: string, request: HttpRequest): Promise<HttpResponse>;
  /** The first request that found no answer, if any: it ends the replay. */
  readonly unmatched: string | undefined;
  /** Set once the last step has played: from then on a request without an answer fails as `unanswered`. */
  afterLastStep: boolean;
  /** Answers queued and never used, as "METHOD /path" (often a typo in a fixture). */
  unused(): string[];
}

/**
 * @param later resolves in a task after the request's (a 0 ms timer of the replay's clock): an
 *   answer or a network failure comes in a task of its own, as a real network's does, so what the
 *   bridge delivers in the request's task and in the answer's is grouped as in a live session.
 */
export function createScriptedHttp(
  basePath: string,
  now: () => number,
  isOnline: () => boolean,
  output: (line: RequestLine) => void,
  later: () => Promise<void> = async () => undefined,
): ScriptedHttp {
  const answers = new Map<string, Answer[]>();
  let unmatched: string | undefined;

  let afterLastStep = false;
  return {
    get afterLastStep() {
      return afterLastStep;
    },
    set afterLastStep(value) {
      afterLastStep = value;
    },
    queue(method, path, answer) {
      const key = `${method} ${path}`;
      const list = answers.get(key) ?? [];
      list.push(answer);
      answers.set(key, list);
    },
    get unmatched() {
      return unmatched;
    },
    unused: () => [...answers].flatMap(([key, list]) => list.map(() => key)),
    async fetch(url, request) {
      const { pathname } = new URL(url);
      const path = pathOnly(pathname.startsWith(basePath) ? pathname.slice(basePath.length) || '/' : pathname);
      const line: RequestLine = {
        kind: 'request',
        at: now(),
        method: request.method,
        path,
        headers: headersAsSent(request),
      };
      const body = bodySummary(request.body);
      if (body !== undefined) line.body = body;
      if (!isOnline()) {
        line.offline = true;
        output(line);
        // At once, as a WebView that knows it is offline (or the demo's Offline switch) fails it.
        throw new TypeError('Failed to fetch');
      }
      const answer = answers.get(`${request.method} ${path}`)?.shift();
      if (answer === undefined && afterLastStep) line.unanswered = true;
      output(line);
      if (answer?.kind !== 'hang') await later();
      if (answer === undefined) {
        if (!afterLastStep) unmatched ??= `${request.method} ${path}`;
        throw new TypeError('Failed to fetch');
      }
      if (answer.kind === 'fail') throw new TypeError('Failed to fetch');
      if (answer.kind === 'hang') {
        // Accepted and never answered: it ends only when the bridge aborts it.
        return new Promise<never>((_, reject) =>
          request.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      }
      return scriptedResponse(answer);
    },
  };
}

function headersAsSent(request: HttpRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers))
    // Both carry an auth token: the contract's Authorization, Chatwoot's X-Auth-Token.
    headers[name] = /^(authorization|x-auth-token)$/i.test(name) ? REDACTED : value;
  // The browser adds the multipart Content-Type (its boundary varies, so it is left out).
  if (typeof FormData !== 'undefined' && request.body instanceof FormData)
    headers['Content-Type'] = 'multipart/form-data';
  return headers;
}

/** What was sent, without file contents: JSON bodies parsed, multipart as fields and file sizes. */
function bodySummary(body: HttpRequest['body']): unknown {
  if (body === undefined) return undefined;
  if (typeof body === 'string') {
    try {
      return JSON.parse(body);
    } catch {
      return body;
    }
  }
  const fields: Record<string, string> = {};
  const files: Array<{ field: string; name: string; type: string; size: number }> = [];
  body.forEach((value, field) => {
    if (typeof value === 'string') fields[field] = value;
    else files.push({ field, name: (value as File).name, type: value.type, size: value.size });
  });
  return { fields, files };
}

function scriptedResponse(answer: Extract<Answer, { kind: 'respond' }>): HttpResponse {
  const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : jsonText(answer.body);
  const headers = new Map(Object.entries(answer.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    status: answer.status,
    headers: { get: (name) => headers.get(name.toLowerCase()) ?? null },
    text: async () => text,
  };
}
