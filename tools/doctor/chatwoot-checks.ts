/**
 * `chat-bridge doctor --backend chatwoot`: whether a Chatwoot installation's widget API answers a
 * bridge as its `backend: 'chatwoot'` profile uses it. Each check follows a rule of Chatwoot's
 * source: the widget API under /api/v1/widget with the website token (config/routes.rb,
 * website_token_helper.rb); the contact token in X-Auth-Token, which a proxy must pass; CORS on
 * /api/* only with ENABLE_API_CORS (config/initializers/cors.rb), so a page on another origin
 * than the installation needs it, and its preflight must allow X-Auth-Token.
 *
 * The last two are the upload checks every backend gets (upload-checks.ts), with Chatwoot's
 * differences (chatwoot-upload.ts): whether a proxy in front takes an attachment of 40 MiB (or
 * `--max-file-size`), and whether its refusal carries CORS headers where CORS applies.
 */
import type { CheckOutcome, CheckResult } from './check.js';
import { contactTokenOf, createChatwootProbe, isSameOrigin, WIDGET_API, type ChatwootProbe } from './chatwoot-probe.js';
import { chatwootUploadAnswers, chatwootUploadCorsCheck, chatwootUploadLimitCheck } from './chatwoot-upload.js';
import { allowOriginFix, allowOriginProblem } from './cors.js';
import type { DoctorRun } from './checks.js';
import { isRedirect, ownerVerdict } from './gates.js';
import type { DoctorTarget, Exchange } from './probe.js';

interface ChatwootCheck {
  name: string;
  run(probe: ChatwootProbe): Promise<CheckOutcome>;
}

const REDIRECT_FIX = "use the installation's final root URL as baseUrl and --base-url: the bridge refuses redirects";

/** The server's own words in a Chatwoot error body (`{"error": ...}` or `{"message": ...}`), clipped. */
function said(answer: Exchange): string {
  if (!answer.answered || typeof answer.body !== 'object' || answer.body === null) return '';
  const body = answer.body as Record<string, unknown>;
  const words = typeof body['error'] === 'string' ? body['error'] : body['message'];
  return typeof words === 'string' ? ` (server: "${words.slice(0, 120)}")` : '';
}

const configCheck: ChatwootCheck = {
  name: `POST ${WIDGET_API}/config`,
  async run(probe) {
    const answer = await probe.config();
    if (!answer.answered || isRedirect(answer.status)) return ownerVerdict(answer, 'fail', REDIRECT_FIX);
    if (contactTokenOf(answer) !== undefined)
      return { status: 'pass', detail: `answered ${answer.status} with a contact token (not shown)` };
    const { status } = answer;
    if (status === 404)
      return {
        status: 'fail',
        detail: `answered 404: no web widget inbox has this website token, or this is not a Chatwoot installation's root${said(answer)}`,
        fix: "use the Website inbox's token (Settings > Inboxes > the inbox > Configuration) and the installation root (https://chat.example.com) as --base-url and baseUrl",
      };
    if (status === 401)
      return {
        status: 'fail',
        detail: `answered 401${said(answer)}: the account is suspended or the inbox refuses the widget`,
        fix: 'reactivate the account (Super Admin > Accounts) or check the inbox',
      };
    if (status === 429)
      return {
        status: 'fail',
        detail: 'answered 429: rack-attack throttles this address',
        fix: 'run the doctor again later; if it persists, raise RACK_ATTACK_LIMIT or check that the proxy forwards the client address',
      };
    return {
      status: 'fail',
      detail: `answered ${status} without a contact token${said(answer)}`,
      fix: "check the installation's logs: POST /api/v1/widget/config must answer 200 with auth_token",
    };
  },
};

const contactTokenCheck: ChatwootCheck = {
  name: 'X-Auth-Token reaches the widget API',
  async run(probe) {
    const answer = await probe.conversations();
    if (answer === undefined)
      return { status: 'skip', detail: `not checked: no contact token, see "${configCheck.name}"` };
    if (!answer.answered || isRedirect(answer.status)) return ownerVerdict(answer, 'fail', REDIRECT_FIX);
    if (answer.status >= 200 && answer.status <= 299)
      return {
        status: 'pass',
        detail: `GET ${WIDGET_API}/conversations with the contact token answered ${answer.status}`,
      };
    return {
      status: 'fail',
      detail: `GET ${WIDGET_API}/conversations with the contact token answered ${answer.status}${said(answer)}${answer.status === 404 ? ': the X-Auth-Token header did not arrive, or the contact is unknown' : ''}`,
      fix: 'let the proxy in front of Chatwoot pass the X-Auth-Token request header (nginx drops none by default; check underscores_in_headers and any header allow-list)',
    };
  },
};

const corsCheck: ChatwootCheck = {
  name: 'same origin or ENABLE_API_CORS',
  async run(probe) {
    const { target } = probe;
    if (isSameOrigin(target))
      return {
        status: 'pass',
        detail:
          "the page is on the installation's origin (the widget page, as Chatwoot's SDKs load it): no CORS needed",
      };
    const answer = await probe.messagesPreflight();
    if (!answer.answered) return ownerVerdict(answer, 'fail', REDIRECT_FIX);
    const problem = allowOriginProblem(answer.headers.get('access-control-allow-origin'), target.origin);
    if (answer.status >= 200 && answer.status <= 299 && problem === undefined)
      return { status: 'pass', detail: `the preflight from ${target.origin} is allowed (ENABLE_API_CORS is on)` };
    return {
      status: 'fail',
      detail: `a page on ${target.origin} cannot call the widget API: the preflight answered ${answer.status}, Access-Control-Allow-Origin ${problem ?? 'fine'}`,
      fix: `load the bridge in the widget page (${target.baseUrl}/widget?website_token=…) as Chatwoot's SDKs do, so no CORS is needed; or set ENABLE_API_CORS=true on the installation (${allowOriginFix(answer.headers.get('access-control-allow-origin'), target.origin)})`,
    };
  },
};

const authHeaderCorsCheck: ChatwootCheck = {
  name: 'CORS allows X-Auth-Token',
  async run(probe) {
    if (isSameOrigin(probe.target)) return { status: 'skip', detail: 'not checked: same origin, so no CORS applies' };
    const answer = await probe.messagesPreflight();
    if (!answer.answered || answer.status < 200 || answer.status > 299)
      return { status: 'skip', detail: `not checked: the preflight was refused, see "${corsCheck.name}"` };
    const allowed = (answer.headers.get('access-control-allow-headers') ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase());
    if (allowed.includes('x-auth-token') || allowed.includes('*'))
      return { status: 'pass', detail: 'the preflight allows the X-Auth-Token request header' };
    return {
      status: 'fail',
      detail: `Access-Control-Allow-Headers is "${answer.headers.get('access-control-allow-headers') ?? ''}": without X-Auth-Token every call after config is refused`,
      fix: "allow the X-Auth-Token request header in CORS (Chatwoot's own ENABLE_API_CORS allows any; a proxy that answers preflights itself must list it)",
    };
  },
};

export const CHATWOOT_CHECKS: readonly ChatwootCheck[] = [
  configCheck,
  contactTokenCheck,
  corsCheck,
  authHeaderCorsCheck,
  chatwootUploadLimitCheck,
  chatwootUploadCorsCheck,
];

/** Runs the checks in order; their requests are shared, and none waits on another's timeout. */
export async function runChatwootDoctor(
  target: DoctorTarget,
  checks: readonly ChatwootCheck[] = CHATWOOT_CHECKS,
): Promise<DoctorRun> {
  const probe = createChatwootProbe(target);
  void probe.conversations();
  void chatwootUploadAnswers(probe);
  if (!isSameOrigin(target)) void probe.messagesPreflight();
  const results: CheckResult[] = [];
  for (const check of checks) {
    const { cause: _cause, ...outcome } = await check.run(probe);
    results.push({ name: check.name, ...outcome });
  }
  return { results, secrets: probe.secrets() };
}
