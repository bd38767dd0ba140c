/**
 * The upload path as the bridge uses it: `POST /messages` with a multipart body of the bridge's
 * `maxFileSize`, and the CORS headers of that endpoint's error answers.
 *
 * Two requests, both with a made-up auth token, so the application refuses them (401) and
 * stores nothing: one small, one with a file of `maxFileSize` bytes. A reverse proxy checks its
 * body size limit before the application sees the request, so a 413 (or, from Caddy 2.6's
 * `request_body max_size`, a 502) for the large body where the small one got the application's
 * 401 is the proxy's limit. nginx's default is 1m, under the bridge's 5 MiB: photos then fail
 * while text works. The made-up token is no secret; the website token is never sent.
 */
import { DEFAULTS } from '../../bridge/index.js';
import { allowOriginFix, allowOriginProblem } from './cors.js';
import type { Check, CheckOutcome } from './check.js';
import { unusable } from './gates.js';
import type { Exchange, Probe } from './probe.js';

/** The bridge's default `maxFileSize`. */
export const DEFAULT_MAX_FILE_SIZE = DEFAULTS.maxFileSize;

const FIXES =
  'raise the body limit to more than maxFileSize plus a few KB of form fields: nginx "client_max_body_size 6m;" ' +
  '(its default is 1m), Caddy "request_body { max_size 6MB }", Apache "LimitRequestBody 6291456"';

interface UploadAnswers {
  size: number;
  small: Exchange;
  large: Exchange;
}

const sent = new WeakMap<Probe, Promise<UploadAnswers>>();

/** The two requests, sent once per probe and shared by the checks below. */
export function uploadAnswers(probe: Probe): Promise<UploadAnswers> {
  let pending = sent.get(probe);
  if (pending === undefined) {
    const size = probe.target.maxFileSize ?? DEFAULT_MAX_FILE_SIZE;
    pending = Promise.all([post(probe, 'small', 1), post(probe, 'large', size)]).then(([small, large]) => ({
      size,
      small,
      large,
    }));
    sent.set(probe, pending);
  }
  return pending;
}

async function post(probe: Probe, which: 'small' | 'large', bytes: number): Promise<Exchange> {
  const { target } = probe;
  const label = which === 'small' ? 'POST /messages' : `POST /messages with ${bytes} bytes`;
  const form = new FormData();
  form.append('message[content]', '');
  form.append('message[echo_id]', `doctor-${globalThis.crypto.randomUUID()}`);
  form.append('attachments[]', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'doctor.jpg');
  // The answer's deadline, and the body's time on a link of 1 MiB/s: 5 MiB take seconds on a busy machine.
  const deadline = target.timeoutMs + Math.ceil(bytes / 1024);
  const signal = AbortSignal.timeout(deadline);
  try {
    const response = await target.fetch(`${target.baseUrl}/messages`, {
      method: 'POST',
      headers: { Origin: target.origin, Authorization: `Bearer doctor-invalid-${globalThis.crypto.randomUUID()}` },
      body: form,
      signal,
      redirect: 'manual',
    });
    const text = await response.text();
    return { answered: true, label, status: response.status, headers: response.headers, text, body: undefined };
  } catch (error) {
    const reason = signal.aborted
      ? `no answer within ${deadline} ms`
      : `no HTTP answer (${(error as { cause?: { code?: string } }).cause?.code ?? 'the connection closed'})`;
    return { answered: false, label, reason, fix: '' };
  }
}

/** The SKIP for a request that got no answer or a redirect (the runner names an earlier check that met it first). */
function unread(exchange: Exchange): CheckOutcome | undefined {
  const gate = unusable(exchange);
  return gate && { status: 'skip', detail: `not checked: ${exchange.label} ${gate.said}`, cause: gate.cause };
}

const isAuthRefusal = (exchange: Exchange) => exchange.answered && (exchange.status === 401 || exchange.status === 403);

export const uploadLimitCheck: Check = {
  name: 'upload body limit',
  async run(probe): Promise<CheckOutcome> {
    const { size, small, large } = await uploadAnswers(probe);
    const what = `a body with a ${size}-byte file (maxFileSize)`;
    if (isAuthRefusal(large))
      return {
        status: 'pass',
        detail: `${what} reaches the application (${(large as { status: number }).status} for a made-up token)`,
      };
    const gate = unread(small);
    if (gate || !small.answered) return gate as CheckOutcome;
    if (!isAuthRefusal(small))
      return {
        status: 'skip',
        detail: `not checked: a made-up token on POST /messages got ${small.status}, not the 401 the contract gives`,
      };
    const seen = large.answered ? `${large.status}` : large.reason;
    const proxy = large.answered && large.status === 413 ? 'a body size limit (413)' : `"${seen}"`;
    const cors =
      large.answered && allowOriginProblem(large.headers.get('access-control-allow-origin'), probe.target.origin)
        ? ', without CORS headers: the app sees a network error, then upload_refused'
        : large.answered && large.status === 413
          ? ': the app sees file_too_large'
          : '';
    return {
      status: 'fail',
      detail: `${what} is refused before the application checks the token: ${proxy}${cors}; a small one gets ${small.status}. Photos fail while text works`,
      fix: FIXES,
    };
  },
};

export const messagesErrorCorsCheck: Check = {
  name: 'CORS on POST /messages errors',
  async run(probe): Promise<CheckOutcome> {
    const { small, large } = await uploadAnswers(probe);
    const gate = unread(small);
    if (gate) return gate;
    const answers = [small, large].filter(
      (exchange): exchange is Extract<Exchange, { answered: true }> => exchange.answered && exchange.status >= 400,
    );
    if (answers.length === 0) return { status: 'skip', detail: 'not checked: POST /messages gave no error answer' };
    const wrong = answers.filter((answer) =>
      allowOriginProblem(answer.headers.get('access-control-allow-origin'), probe.target.origin),
    );
    const list = (some: typeof answers) => some.map((answer) => `${answer.status} (${answer.label})`).join(' and ');
    if (wrong.length === 0) return { status: 'pass', detail: `Access-Control-Allow-Origin right on ${list(answers)}` };
    const first = wrong[0] as (typeof answers)[number];
    const value = first.headers.get('access-control-allow-origin');
    return {
      status: 'fail',
      detail: `Access-Control-Allow-Origin ${allowOriginProblem(value, probe.target.origin)} on ${list(wrong)}: the WebView reports a network error instead`,
      fix: `${allowOriginFix(value, probe.target.origin)} (nginx: "add_header ... always", or its own 413 and the app's 401 go out without it)`,
    };
  },
};
