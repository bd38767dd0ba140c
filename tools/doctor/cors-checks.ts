/**
 * The CORS checks: the preflights a WebView sends before the bridge's requests, the three
 * headers the contract requires on them, Allow-Origin on actual answers, and whether the page
 * may read Retry-After.
 */
import {
  allowOriginProblem,
  exposesRetryAfter,
  missingMethods,
  missingRequestHeaders,
  REQUIRED_METHODS,
  variesByOrigin,
} from './cors.js';
import type { Check } from './checks.js';
import { type Exchange, type Probe } from './probe.js';

/**
 * The preflight of a conversation endpoint with both custom headers is the one a WebView sends
 * before every authorized request. The bridge's own `GET /config` is a simple request and is
 * not preflighted today, but the contract requires the headers on every endpoint and a
 * WebView or proxy that adds a header would preflight it, so its preflight is checked too.
 */
const CONFIG_PREFLIGHT = (probe: Probe) => probe.preflight('/config', 'GET');
const MESSAGES_PREFLIGHT = (probe: Probe) => probe.preflight('/messages', 'POST', 'content-type, authorization');

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
      if (!answer.answered) return { status: 'fail', detail: answer.reason, fix: answer.fix };
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

export const configPreflightCheck = preflightCheck('preflight OPTIONS /config', CONFIG_PREFLIGHT);
export const messagesPreflightCheck = preflightCheck('preflight OPTIONS /messages', MESSAGES_PREFLIGHT);

/** Evaluates one header on both preflights; `problem` says what is wrong with a value, or undefined. */
function preflightHeaderCheck(
  header: string,
  problem: (value: string | null, probe: Probe) => string | undefined,
  fix: (probe: Probe) => string,
): Check {
  return {
    name: `CORS ${header}`,
    async run(probe) {
      const answers = [await CONFIG_PREFLIGHT(probe), await MESSAGES_PREFLIGHT(probe)];
      // problem -> the preflights showing it, so one missing header reads as one statement.
      const problems = new Map<string, string[]>();
      const values = new Set<string>();
      for (const answer of answers) {
        const value = answer.answered ? answer.headers.get(header) : null;
        const wrong = answer.answered ? problem(value, probe) : 'no answer';
        if (wrong === undefined) {
          values.add(`"${value ?? ''}"`);
          continue;
        }
        const key = `${wrong}${value === null ? '' : ` (sent "${value}")`}`;
        problems.set(key, [...(problems.get(key) ?? []), answer.label]);
      }
      if (problems.size > 0) {
        const detail = [...problems].map(([wrong, labels]) => `${wrong} on ${labels.join(' and ')}`).join('; ');
        return { status: 'fail', detail, fix: fix(probe) };
      }
      return { status: 'pass', detail: `${[...values].join(' and ')} on both preflights` };
    },
  };
}

const allowOriginOnPreflights = preflightHeaderCheck(
  'Access-Control-Allow-Origin',
  (value, probe) => allowOriginProblem(value, probe.target.origin),
  (probe) => ALLOW_ORIGIN_FIX(probe.target.origin),
);

export const allowOriginCheck: Check = {
  name: allowOriginOnPreflights.name,
  async run(probe) {
    const result = await allowOriginOnPreflights.run(probe);
    if (result.status !== 'pass') return result;
    // An echoed origin is right for this page, but a shared cache may hand it to another one.
    const preflight = await MESSAGES_PREFLIGHT(probe);
    if (
      preflight.answered &&
      preflight.headers.get('access-control-allow-origin')?.trim() !== '*' &&
      !variesByOrigin(preflight.headers.get('vary'))
    ) {
      return {
        status: 'warn',
        detail: `${result.detail}, without "Vary: Origin"`,
        fix: 'add "Vary: Origin" wherever Access-Control-Allow-Origin echoes the request origin, or send *',
      };
    }
    return result;
  },
};

export const allowMethodsCheck = preflightHeaderCheck(
  'Access-Control-Allow-Methods',
  (value) => {
    if (value === null) return 'missing';
    const missing = missingMethods(value);
    return missing.length === 0 ? undefined : `missing ${missing.join(', ')}`;
  },
  () => METHODS_FIX,
);

export const allowHeadersCheck = preflightHeaderCheck(
  'Access-Control-Allow-Headers',
  (value) => {
    if (value === null) return 'missing';
    const { missing, wildcard } = missingRequestHeaders(value);
    if (missing.length === 0) return undefined;
    return `missing ${missing.join(', ')}${wildcard && missing.includes('Authorization') ? ' (a * never covers Authorization)' : ''}`;
  },
  () => HEADERS_FIX,
);

/** Without Allow-Origin on the answer itself the page sees a network error, not the status. */
export const responseCorsCheck: Check = {
  name: 'CORS on API responses',
  async run(probe) {
    const answers = [await probe.config('given'), await probe.config('wrong')];
    const problems: string[] = [];
    const seen: string[] = [];
    for (const answer of answers) {
      if (!answer.answered) continue;
      const problem = allowOriginProblem(answer.headers.get('access-control-allow-origin'), probe.target.origin);
      if (problem !== undefined)
        problems.push(`Access-Control-Allow-Origin ${problem} on the ${answer.status} answer of ${answer.label}`);
      else seen.push(`${answer.label} (${answer.status})`);
    }
    if (problems.length > 0) {
      return {
        status: 'fail',
        detail: `${problems.join('; ')}: the WebView reports a network error instead of the answer`,
        fix: `${ALLOW_ORIGIN_FIX(probe.target.origin)} (nginx: "add_header ... always")`,
      };
    }
    return { status: 'pass', detail: `Access-Control-Allow-Origin present on ${seen.join(' and on ')}` };
  },
};

/**
 * A failure, not a warning: the contract's answer to 429 is "retry after a delay", and a
 * cross-origin page can read `Retry-After` only when it is exposed. Without it the bridge can
 * only guess its backoff and keeps hitting a backend that told it exactly how long to wait.
 * Browsers read Expose-Headers from actual answers only, so a preflight's copy does not count.
 */
export const exposeRetryAfterCheck: Check = {
  name: 'CORS Access-Control-Expose-Headers',
  async run(probe) {
    const answers = [await probe.config('given'), await probe.config('wrong')];
    const hidden = answers.filter(
      (answer) => answer.answered && !exposesRetryAfter(answer.headers.get('access-control-expose-headers')),
    );
    if (hidden.length === 0)
      return { status: 'pass', detail: 'Retry-After is exposed to the page on GET /config answers' };
    const preflight = await MESSAGES_PREFLIGHT(probe);
    const onPreflightOnly =
      preflight.answered && exposesRetryAfter(preflight.headers.get('access-control-expose-headers'));
    const where = hidden
      .map((answer) => (answer.answered ? `the ${answer.status} answer of ${answer.label}` : answer.label))
      .join(' and ');
    return {
      status: 'fail',
      detail:
        `Retry-After is not exposed on ${where}${onPreflightOnly ? ' (only the preflight sends it, where browsers ignore it)' : ''}: ` +
        "after a 429 the bridge cannot read the server's delay and falls back to its own backoff",
      fix: EXPOSE_FIX,
    };
  },
};
