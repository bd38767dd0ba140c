/**
 * The upload path as the bridge uses it: its messages endpoint with a multipart body of the
 * bridge's `maxFileSize`, and the CORS headers of that endpoint's error answers. The checks are
 * the same for every backend; what differs (the path, the file's field, the credential header,
 * how the application refuses a made-up credential, the largest file, the fixes) comes in an
 * `UploadProfile`: the contract's is below, Chatwoot's in chatwoot-upload.ts.
 *
 * Two requests, both with a made-up credential, so the application refuses them and stores
 * nothing: one small, one with a file of `maxFileSize` bytes. A reverse proxy checks its body
 * size limit before the application sees the request, so a 413 (or, from Caddy 2.6's
 * `request_body max_size`, a 502) for the large body where the small one got the application's
 * refusal is the proxy's limit. nginx's default is 1m, under the bridge's 5 MiB: photos then
 * fail while text works. The made-up credential is no secret; the website token goes only where
 * the backend wants it (the contract: nowhere; Chatwoot: the URL), and labels never show it.
 */
import { normalizeOptions, type BackendName } from '../../bridge/index.js';
import { allowOriginFix, allowOriginProblem } from './cors.js';
import type { CheckOutcome } from './check.js';
import { unusable, type Answered } from './gates.js';
import { parseBody, type DoctorTarget, type Exchange } from './probe.js';

/** What one backend does differently on its upload path. */
export interface UploadProfile {
  /** The bridge's `backend` option: the bridge's own rule picks the file size (`maxFileSize`). */
  backend: BackendName;
  /** The endpoint's path, as labels and check names show it: never with a token. */
  path: string;
  /** Where the requests go: the path under `baseUrl`, with the website token where the backend wants it. */
  url(target: DoctorTarget): string;
  /** The multipart field of the file. */
  fileField: string;
  /** The credential's name in the report ("token", "X-Auth-Token"). */
  credential: string;
  /** The request header that carries the made-up credential. */
  credentialHeader(madeUp: string): Record<string, string>;
  /** Whether an answer is the application refusing the made-up credential (nothing stored). */
  isRefusal(answer: Answered): boolean;
  /** That refusal, as a SKIP line names what it expected ("the 401 the contract gives"). */
  refusal: string;
  /** Whether CORS applies: a page on the API's own origin reads every answer without it. */
  crossOrigin(target: DoctorTarget): boolean;
  /** What to change when the large body is refused. */
  limitFix(size: number): string;
  /** What to add to the fix of a missing or wrong Access-Control-Allow-Origin on an error answer. */
  corsFixNote: string;
}

/** The checks read only the target; the contract's Probe and Chatwoot's both have one. */
export interface HasTarget {
  readonly target: DoctorTarget;
}

export interface UploadCheck {
  name: string;
  run(probe: HasTarget): Promise<CheckOutcome>;
}

export interface UploadAnswers {
  size: number;
  small: Exchange;
  large: Exchange;
}

/** The file the bridge would take at most: its own rule for `maxFileSize` on this backend. */
export const uploadSize = (profile: UploadProfile, target: DoctorTarget): number =>
  normalizeOptions(
    { baseUrl: target.baseUrl, backend: profile.backend, maxFileSize: target.maxFileSize },
    target.origin,
  ).maxFileSize;

/** The two requests, sent once per probe and profile, shared by the checks. */
function answersOf(profile: UploadProfile): (probe: HasTarget) => Promise<UploadAnswers> {
  const sent = new WeakMap<HasTarget, Promise<UploadAnswers>>();
  return (probe) => {
    let pending = sent.get(probe);
    if (pending === undefined) {
      const size = uploadSize(profile, probe.target);
      pending = Promise.all([post(profile, probe.target, 'small', 1), post(profile, probe.target, 'large', size)]).then(
        ([small, large]) => ({ size, small, large }),
      );
      sent.set(probe, pending);
    }
    return pending;
  };
}

async function post(
  profile: UploadProfile,
  target: DoctorTarget,
  which: 'small' | 'large',
  bytes: number,
): Promise<Exchange> {
  const label = which === 'small' ? `POST ${profile.path}` : `POST ${profile.path} with ${bytes} bytes`;
  const form = new FormData();
  form.append('message[content]', '');
  form.append('message[echo_id]', `doctor-${globalThis.crypto.randomUUID()}`);
  form.append(profile.fileField, new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'doctor.jpg');
  // The answer's deadline, and the body's time on a link of 1 MiB/s: 5 MiB take seconds on a busy machine.
  const deadline = target.timeoutMs + Math.ceil(bytes / 1024);
  const signal = AbortSignal.timeout(deadline);
  try {
    const response = await target.fetch(profile.url(target), {
      method: 'POST',
      headers: {
        Origin: target.origin,
        ...profile.credentialHeader(`doctor-invalid-${globalThis.crypto.randomUUID()}`),
      },
      body: form,
      signal,
      redirect: 'manual',
    });
    const text = await response.text();
    return { answered: true, label, status: response.status, headers: response.headers, text, body: parseBody(text) };
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

/** The two upload checks of one backend: whether a body of `maxFileSize` gets through, and CORS on the refusals. */
export function createUploadChecks(profile: UploadProfile): {
  limit: UploadCheck;
  errorCors: UploadCheck;
  /** The two requests' answers, for tests that look at what was sent. */
  answers: (probe: HasTarget) => Promise<UploadAnswers>;
} {
  const uploadAnswers = answersOf(profile);
  const isRefusal = (exchange: Exchange) => exchange.answered && profile.isRefusal(exchange);

  const limit: UploadCheck = {
    name: 'upload body limit',
    async run(probe): Promise<CheckOutcome> {
      const { size, small, large } = await uploadAnswers(probe);
      const what = `a body with a ${size}-byte file (maxFileSize)`;
      if (isRefusal(large))
        return {
          status: 'pass',
          detail: `${what} reaches the application (${(large as Answered).status} for a made-up ${profile.credential})`,
        };
      const gate = unread(small);
      if (gate || !small.answered) return gate as CheckOutcome;
      if (!isRefusal(small))
        return {
          status: 'skip',
          detail: `not checked: a made-up ${profile.credential} on POST ${profile.path} got ${small.status}, not ${profile.refusal}`,
        };
      const seen = large.answered ? `${large.status}` : large.reason;
      const proxy = large.answered && large.status === 413 ? 'a body size limit (413)' : `"${seen}"`;
      const cors =
        large.answered &&
        profile.crossOrigin(probe.target) &&
        allowOriginProblem(large.headers.get('access-control-allow-origin'), probe.target.origin)
          ? ', without CORS headers: the app sees a network error, then upload_refused'
          : large.answered && large.status === 413
            ? ': the app sees file_too_large'
            : '';
      return {
        status: 'fail',
        detail: `${what} is refused before the application checks the ${profile.credential}: ${proxy}${cors}; a small one gets ${small.status}. Photos fail while text works`,
        fix: profile.limitFix(size),
      };
    },
  };

  const errorCors: UploadCheck = {
    name: `CORS on POST ${profile.path} errors`,
    async run(probe): Promise<CheckOutcome> {
      if (!profile.crossOrigin(probe.target))
        return { status: 'skip', detail: "not checked: the page is on the API's origin, so no CORS applies" };
      const { small, large } = await uploadAnswers(probe);
      const gate = unread(small);
      if (gate) return gate;
      const answers = [small, large].filter(
        (exchange): exchange is Answered => exchange.answered && exchange.status >= 400,
      );
      if (answers.length === 0)
        return { status: 'skip', detail: `not checked: POST ${profile.path} gave no error answer` };
      const wrong = answers.filter((answer) =>
        allowOriginProblem(answer.headers.get('access-control-allow-origin'), probe.target.origin),
      );
      const list = (some: Answered[]) => some.map((answer) => `${answer.status} (${answer.label})`).join(' and ');
      if (wrong.length === 0)
        return { status: 'pass', detail: `Access-Control-Allow-Origin right on ${list(answers)}` };
      const value = (wrong[0] as Answered).headers.get('access-control-allow-origin');
      return {
        status: 'fail',
        detail: `Access-Control-Allow-Origin ${allowOriginProblem(value, probe.target.origin)} on ${list(wrong)}: the WebView reports a network error instead`,
        fix: `${allowOriginFix(value, probe.target.origin)} (${profile.corsFixNote})`,
      };
    },
  };
  return { limit, errorCors, answers: uploadAnswers };
}

/** The contract's upload path (chat-service-errors.md): `POST /messages`, `attachments[]`, a Bearer token refused with 401. */
export const CONTRACT_UPLOAD: UploadProfile = {
  backend: 'contract',
  path: '/messages',
  url: (target) => `${target.baseUrl}/messages`,
  fileField: 'attachments[]',
  credential: 'token',
  credentialHeader: (madeUp) => ({ Authorization: `Bearer ${madeUp}` }),
  isRefusal: (answer) => answer.status === 401 || answer.status === 403,
  refusal: 'the 401 the contract gives',
  // The contract asks for CORS on every answer (chat-service-errors.md), whatever the page's origin.
  crossOrigin: () => true,
  limitFix: () =>
    'raise the body limit to more than maxFileSize plus a few KB of form fields: nginx "client_max_body_size 6m;" ' +
    '(its default is 1m), Caddy "request_body { max_size 6MB }", Apache "LimitRequestBody 6291456"',
  corsFixNote: `nginx: "add_header ... always", or its own 413 and the app's 401 go out without it`,
};

const contract = createUploadChecks(CONTRACT_UPLOAD);
export const uploadLimitCheck = contract.limit;
export const messagesErrorCorsCheck = contract.errorCors;
export const uploadAnswers = contract.answers;
