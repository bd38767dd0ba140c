/**
 * The doctor's checks: each one question about the backend, asked the way a WebView running
 * the bridge would ask it, answered with what is wrong and how to fix it. Checks share one
 * probe, so a request several checks read (a preflight, the config) is sent once.
 */
import { errorMessageOf, authTokenOf } from '../responses.js';
import { allowOriginProblem, exposesRetryAfter, missingMethods, missingRequestHeaders, REQUIRED_METHODS, variesByOrigin } from './cors.js';
import { createProbe, type DoctorTarget, type Exchange, type Probe } from './probe.js';

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  name: string;
  status: CheckStatus;
  /** What was seen; never a token value. */
  detail: string;
  /** What to change on the backend, for `fail` and `warn`. */
  fix?: string;
}

export interface Check {
  name: string;
  run(probe: Probe): Promise<Omit<CheckResult, 'name'>>;
}

/** The preflight of the bridge's own config request, and of a conversation endpoint with both custom headers. */
const CONFIG_PREFLIGHT = (probe: Probe) => probe.preflight('/config', 'GET');
const MESSAGES_PREFLIGHT = (probe: Probe) => probe.preflight('/messages', 'POST', 'content-type, authorization');

const REACH_FIX = 'check --base-url (the API root the app passes as baseUrl) and that the backend runs and is reachable from here';
const ALLOW_ORIGIN_FIX = (origin: string) =>
  `send "Access-Control-Allow-Origin: *" (or exactly "${origin}") on every API response, preflights and errors included`;
const METHODS_FIX = `send "Access-Control-Allow-Methods: ${REQUIRED_METHODS.join(', ')}" on preflight answers`;
const HEADERS_FIX = 'send "Access-Control-Allow-Headers: Content-Type, Authorization" on preflight answers';
const EXPOSE_FIX = 'send "Access-Control-Expose-Headers: Retry-After" on every API response (429 answers above all)';

function preflightCheck(name: string, send: (probe: Probe) => Promise<Exchange>): Check {
  return {
    name,
    async run(probe) {
      const answer = await send(probe);
      if (!answer.answered) return { status: 'fail', detail: answer.reason, fix: REACH_FIX };
      if (answer.status >= 200 && answer.status <= 299) return { status: 'pass', detail: `answered ${answer.status}` };
      if (answer.status >= 300 && answer.status <= 399) {
        return {
          status: 'fail',
          detail: `answered ${answer.status}, a redirect to ${answer.headers.get('location') ?? '(no Location)'}`,
          fix: 'browsers do not follow redirects on preflights: use the final URL as baseUrl and --base-url',
        };
      }
      return {
        status: 'fail',
        detail: `answered ${answer.status} instead of 2xx, so the WebView refuses the request that follows`,
        // 401/403 here usually means authentication runs before CORS: preflights carry no credentials.
        fix: 'answer OPTIONS on every API path with 204 and the CORS headers, before any authentication (preflights never carry Authorization)',
      };
    },
  };
}

/** Evaluates one header on both preflights; `problem` says what is wrong with a value, or undefined. */
function preflightHeaderCheck(header: string, problem: (value: string | null, probe: Probe) => string | undefined, fix: (probe: Probe) => string): Check {
  return {
    name: `CORS ${header}`,
    async run(probe) {
      const answers = [await CONFIG_PREFLIGHT(probe), await MESSAGES_PREFLIGHT(probe)];
      const problems: string[] = [];
      const values = new Set<string>();
      for (const answer of answers) {
        if (!answer.answered) {
          problems.push(`${answer.label} got no answer`);
          continue;
        }
        const value = answer.headers.get(header);
        const wrong = problem(value, probe);
        if (wrong !== undefined) problems.push(`${wrong} on ${answer.label}${value === null ? '' : ` (sent "${value}")`}`);
        else values.add(`"${value ?? ''}"`);
      }
      if (problems.length > 0) return { status: 'fail', detail: problems.join('; '), fix: fix(probe) };
      return { status: 'pass', detail: `${[...values].join(' and ')} on both preflights` };
    },
  };
}

const allowOriginOnPreflights = preflightHeaderCheck(
  'Access-Control-Allow-Origin',
  (value, probe) => allowOriginProblem(value, probe.target.origin),
  (probe) => ALLOW_ORIGIN_FIX(probe.target.origin),
);

const allowOriginCheck: Check = {
  name: allowOriginOnPreflights.name,
  async run(probe) {
    const result = await allowOriginOnPreflights.run(probe);
    if (result.status !== 'pass') return result;
    // An echoed origin is right for this page, but a shared cache may hand it to another one.
    const preflight = await MESSAGES_PREFLIGHT(probe);
    if (preflight.answered && preflight.headers.get('access-control-allow-origin')?.trim() !== '*' && !variesByOrigin(preflight.headers.get('vary'))) {
      return { status: 'warn', detail: `${result.detail}, without "Vary: Origin"`, fix: 'add "Vary: Origin" wherever Access-Control-Allow-Origin echoes the request origin, or send *' };
    }
    return result;
  },
};

const allowMethodsCheck = preflightHeaderCheck(
  'Access-Control-Allow-Methods',
  (value) => {
    if (value === null) return 'missing';
    const missing = missingMethods(value);
    return missing.length === 0 ? undefined : `missing ${missing.join(', ')}`;
  },
  () => METHODS_FIX,
);

const allowHeadersCheck = preflightHeaderCheck(
  'Access-Control-Allow-Headers',
  (value) => {
    if (value === null) return 'missing';
    const { missing, wildcard } = missingRequestHeaders(value);
    if (missing.length === 0) return undefined;
    return `missing ${missing.join(', ')}${wildcard && missing.includes('Authorization') ? ' (a * never covers Authorization)' : ''}`;
  },
  () => HEADERS_FIX,
);

const configCheck: Check = {
  name: 'GET /config',
  async run(probe) {
    const answer = await probe.config('given');
    if (!answer.answered) return { status: 'fail', detail: answer.reason, fix: REACH_FIX };
    const { status } = answer;
    if (status === 401 || status === 403) {
      const said = errorMessageOf(answer.body);
      return {
        status: 'fail',
        detail: `answered ${status}: the website token is invalid, disabled or rotated${said === undefined ? '' : ` (server: "${clip(said)}")`}`,
        fix: "use the inbox's current website token (rotating it invalidates the old one) in --website-token and in the app's websiteToken option",
      };
    }
    if (status >= 300 && status <= 399) {
      return {
        status: 'fail',
        detail: `answered ${status}, a redirect to ${answer.headers.get('location') ?? '(no Location)'}`,
        fix: 'use the final URL as baseUrl: a redirected POST loses its body and a cross-origin one its Authorization header',
      };
    }
    if (status < 200 || status > 299) {
      return {
        status: 'fail',
        detail: `answered ${status}${status === 404 ? ': no /config under this base URL' : ''}`,
        fix: status === 404 ? 'point --base-url (and baseUrl) at the API root that serves /config' : 'check the backend logs: GET /config must answer 200 with JSON carrying an authToken',
      };
    }
    if (authTokenOf(answer.body) !== undefined) return { status: 'pass', detail: `answered ${status} with a usable authToken (not shown)` };
    const what =
      answer.text.trim() === ''
        ? 'an empty body'
        : answer.body === undefined
          ? `a body that is not JSON (Content-Type ${answer.headers.get('content-type') ?? 'missing'})`
          : 'JSON without a non-empty string authToken';
    return {
      status: 'fail',
      detail: `answered ${status} with ${what}: the backend is misconfigured (not the chat API, or the widget inbox is not set up)`,
      fix: 'make GET /config answer JSON with a non-empty string "authToken" (check that the inbox behind this website token exists and the API runs behind --base-url)',
    };
  },
};

const rejectedTokenCheck: Check = {
  name: 'rejected website token',
  async run(probe) {
    const answer = await probe.config('wrong');
    if (!answer.answered) return { status: 'fail', detail: answer.reason, fix: REACH_FIX };
    const ERROR_BODY_FIX = 'answer a refused website token with 401 and a JSON ErrorResponse body such as {"message": "Invalid website token"} (Content-Type: application/json)';
    if (answer.status !== 401) {
      return {
        status: 'fail',
        detail: `a made-up website token got ${answer.status} instead of 401${answer.status >= 200 && answer.status <= 299 ? ': the backend does not check website tokens' : ''}`,
        fix: ERROR_BODY_FIX,
      };
    }
    const message = errorMessageOf(answer.body);
    if (message === undefined) {
      const what = answer.text.trim() === '' ? 'an empty body' : answer.body === undefined ? 'a body that is not JSON' : 'JSON without a string "message"';
      return { status: 'fail', detail: `a made-up website token got 401 with ${what}, not an ErrorResponse, so the app cannot say why`, fix: ERROR_BODY_FIX };
    }
    return { status: 'pass', detail: `a made-up website token got 401 with an ErrorResponse ("${clip(message)}")` };
  },
};

/** Without Allow-Origin on the answer itself the page sees a network error, not the status. */
const responseCorsCheck: Check = {
  name: 'CORS on API responses',
  async run(probe) {
    const answers = [await probe.config('given'), await probe.config('wrong')];
    const problems: string[] = [];
    const seen: string[] = [];
    for (const answer of answers) {
      if (!answer.answered) continue;
      const problem = allowOriginProblem(answer.headers.get('access-control-allow-origin'), probe.target.origin);
      if (problem !== undefined) problems.push(`Access-Control-Allow-Origin ${problem} on the ${answer.status} answer of ${answer.label}`);
      else seen.push(`${answer.status}`);
    }
    if (problems.length > 0) {
      return {
        status: 'fail',
        detail: `${problems.join('; ')}: the WebView reports a network error instead of the answer`,
        fix: `${ALLOW_ORIGIN_FIX(probe.target.origin)} (nginx: "add_header ... always")`,
      };
    }
    return { status: 'pass', detail: `Access-Control-Allow-Origin present on the ${seen.join(' and ')} answers of GET /config` };
  },
};

/**
 * A failure, not a warning: the contract's answer to 429 is "retry after a delay", and a
 * cross-origin page can read `Retry-After` only when it is exposed. Without it the bridge can
 * only guess its backoff and keeps hitting a backend that told it exactly how long to wait.
 * Browsers read Expose-Headers from actual answers only, so a preflight's copy does not count.
 */
const exposeRetryAfterCheck: Check = {
  name: 'CORS Access-Control-Expose-Headers',
  async run(probe) {
    const answers = [await probe.config('given'), await probe.config('wrong')];
    const hidden = answers.filter((answer) => answer.answered && !exposesRetryAfter(answer.headers.get('access-control-expose-headers')));
    if (hidden.length === 0) return { status: 'pass', detail: 'Retry-After is exposed to the page on GET /config answers' };
    const preflight = await MESSAGES_PREFLIGHT(probe);
    const onPreflightOnly = preflight.answered && exposesRetryAfter(preflight.headers.get('access-control-expose-headers'));
    const where = hidden.map((answer) => (answer.answered ? `the ${answer.status} answer of ${answer.label}` : answer.label)).join(' and ');
    return {
      status: 'fail',
      detail:
        `Retry-After is not exposed on ${where}${onPreflightOnly ? ' (only the preflight sends it, where browsers ignore it)' : ''}: ` +
        "after a 429 the bridge cannot read the server's delay and falls back to its own backoff",
      fix: EXPOSE_FIX,
    };
  },
};

/** Every check, in the order a WebView meets the problems. */
export const DOCTOR_CHECKS: readonly Check[] = [
  preflightCheck('preflight OPTIONS /config', CONFIG_PREFLIGHT),
  preflightCheck('preflight OPTIONS /messages', MESSAGES_PREFLIGHT),
  allowOriginCheck,
  allowMethodsCheck,
  allowHeadersCheck,
  configCheck,
  rejectedTokenCheck,
  responseCorsCheck,
  exposeRetryAfterCheck,
];

export interface DoctorRun {
  results: CheckResult[];
  /** Token values met during the run, for the report to scrub. */
  secrets: string[];
}

/**
 * Runs the checks in order. Once a request got no answer at all, the rest are skipped: they
 * would each wait for the same dead server and repeat the same line.
 */
export async function runDoctor(target: DoctorTarget, checks: readonly Check[] = DOCTOR_CHECKS): Promise<DoctorRun> {
  const probe = createProbe(target);
  const results: CheckResult[] = [];
  for (const check of checks) {
    if (probe.unreachable() !== undefined) {
      results.push({ name: check.name, status: 'skip', detail: 'not run: an earlier request got no answer' });
      continue;
    }
    results.push({ name: check.name, ...(await check.run(probe)) });
  }
  return { results, secrets: probe.secrets() };
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
