/**
 * The preflights and the three headers the contract requires on them. What the bridge needs is
 * the preflight before its authorized requests (`OPTIONS /messages`, POST with Content-Type and
 * Authorization): a problem there FAILs. The bridge never preflights `GET /config`, and GET and
 * POST are CORS-safelisted methods, so problems with the `/config` preflight and with
 * `Access-Control-Allow-Methods` are WARNs: the contract asks for them, the bridge works without.
 */
import {
  allowOriginFix,
  allowOriginProblem,
  missingMethods,
  missingRequestHeaders,
  REQUIRED_METHODS,
  variesByOrigin,
} from './cors.js';
import type { Check, CheckOutcome } from './check.js';
import {
  isRedirect,
  notChecked,
  notCheckedOn,
  ownerVerdict,
  skippedFor,
  unusablePreflight,
  type Skipped,
} from './gates.js';
import { configPreflight, messagesPreflight, type Exchange, type Probe } from './probe.js';

const NOT_NEEDED =
  ' (the bridge never preflights GET /config: it sends no custom header on it; the contract asks for CORS on every endpoint)';

function preflightCheck(name: string, send: (probe: Probe) => Promise<Exchange>, needed: boolean): Check {
  const status = needed ? 'fail' : 'warn';
  const note = needed ? '' : NOT_NEEDED;
  return {
    name,
    async run(probe) {
      const answer = await send(probe);
      if (!answer.answered || isRedirect(answer.status)) {
        return ownerVerdict(
          answer,
          status,
          'browsers do not follow redirects on preflights: use the final URL as baseUrl and --base-url',
          note,
        );
      }
      if (answer.status >= 200 && answer.status <= 299) return { status: 'pass', detail: `answered ${answer.status}` };
      return {
        status,
        detail: `answered ${answer.status} instead of 2xx, so the WebView refuses the request that follows${note}`,
        // 401/403 here usually means authentication runs before CORS: preflights carry no credentials.
        fix: 'answer OPTIONS on every API path with 204 and the CORS headers, before any authentication (preflights never carry Authorization)',
      };
    },
  };
}

export const messagesPreflightCheck = preflightCheck('preflight OPTIONS /messages', messagesPreflight, true);
export const configPreflightCheck = preflightCheck('preflight OPTIONS /config', configPreflight, false);

interface HeaderRule {
  header: string;
  /** What is wrong with the value, or undefined. */
  problem(value: string | null, probe: Probe): string | undefined;
  /** What to change, for the value actually sent. */
  fix(value: string | null, probe: Probe): string;
  /** How bad a problem is on the preflight the bridge sends (`OPTIONS /messages`). */
  messagesStatus: 'fail' | 'warn';
  /** Said after a WARN, so nobody hunts a failure that is not one. */
  warnNote: string;
}

/** Evaluates one header on both preflights, each problem stated once with the preflights showing it. */
function preflightHeaderCheck(rule: HeaderRule): Check {
  return {
    name: `CORS ${rule.header}`,
    async run(probe): Promise<CheckOutcome> {
      const preflights: Array<[Exchange, string, 'fail' | 'warn']> = [
        [await messagesPreflight(probe), messagesPreflightCheck.name, rule.messagesStatus],
        [await configPreflight(probe), configPreflightCheck.name, 'warn'],
      ];
      const problems = new Map<string, { labels: string[]; status: 'fail' | 'warn'; fix: string }>();
      const values: Array<{ value: string; label: string }> = [];
      const skipped: Skipped[] = [];
      for (const [answer, owner, status] of preflights) {
        const gate = unusablePreflight(answer);
        if (gate !== undefined || !answer.answered) {
          if (gate !== undefined) skipped.push(skippedFor(answer, gate, owner));
          continue;
        }
        const value = answer.headers.get(rule.header);
        const wrong = rule.problem(value, probe);
        if (wrong === undefined) {
          values.push({ value: value ?? '', label: answer.label });
          continue;
        }
        const key = `${wrong}${value === null || wrong.includes(value) ? '' : ` (sent "${value}")`}`;
        const seen = problems.get(key);
        if (seen === undefined) problems.set(key, { labels: [answer.label], status, fix: rule.fix(value, probe) });
        else {
          seen.labels.push(answer.label);
          if (status === 'fail') seen.status = 'fail';
        }
      }
      const notOn = notCheckedOn(skipped);
      if (problems.size > 0) {
        const status = [...problems.values()].some((problem) => problem.status === 'fail') ? 'fail' : 'warn';
        const detail = [...problems].map(([wrong, { labels }]) => `${wrong} on ${labels.join(' and ')}`).join('; ');
        const fix = [...new Set([...problems.values()].map((problem) => problem.fix))].join('; ');
        return { status, detail: `${detail}${status === 'warn' ? rule.warnNote : ''}${notOn}`, fix };
      }
      if (values.length === 0) return notChecked(skipped);
      const same = values.length === 2 && values.every(({ value }) => value === values[0]?.value);
      const seen = same
        ? `"${values[0]?.value}" on both preflights`
        : values.map(({ value, label }) => `"${value}" on ${label}`).join(' and ');
      return { status: 'pass', detail: `${seen}${notOn}` };
    },
  };
}

const allowOriginOnPreflights = preflightHeaderCheck({
  header: 'Access-Control-Allow-Origin',
  problem: (value, probe) => allowOriginProblem(value, probe.target.origin),
  fix: (value, probe) => allowOriginFix(value, probe.target.origin),
  messagesStatus: 'fail',
  warnNote: NOT_NEEDED,
});

export const allowOriginCheck: Check = {
  name: allowOriginOnPreflights.name,
  async run(probe) {
    const result = await allowOriginOnPreflights.run(probe);
    if (result.status !== 'pass') return result;
    // An echoed origin is right for this page, but a shared cache may hand it to another one.
    const preflight = await messagesPreflight(probe);
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

export const allowHeadersCheck = preflightHeaderCheck({
  header: 'Access-Control-Allow-Headers',
  problem(value) {
    if (value === null) return 'missing';
    const { missing, wildcard } = missingRequestHeaders(value);
    if (missing.length === 0) return undefined;
    return `missing ${missing.join(', ')}${wildcard && missing.includes('Authorization') ? ' (a * never covers Authorization)' : ''}`;
  },
  fix(value) {
    if (value === null) return 'send "Access-Control-Allow-Headers: Content-Type, Authorization" on preflight answers';
    const { missing } = missingRequestHeaders(value);
    return `add ${missing.join(' and ')} to Access-Control-Allow-Headers ("${[value.trim(), ...missing].join(', ')}")`;
  },
  messagesStatus: 'fail',
  warnNote: NOT_NEEDED,
});

export const allowMethodsCheck = preflightHeaderCheck({
  header: 'Access-Control-Allow-Methods',
  problem(value) {
    if (value === null) return 'missing';
    const missing = missingMethods(value);
    return missing.length === 0 ? undefined : `missing ${missing.join(', ')}`;
  },
  fix(value) {
    if (value === null)
      return `send "Access-Control-Allow-Methods: ${REQUIRED_METHODS.join(', ')}" on preflight answers`;
    const missing = missingMethods(value);
    return `add ${missing.join(', ')} to Access-Control-Allow-Methods ("${[value.trim(), ...missing].join(', ')}")`;
  },
  // The bridge sends only GET and POST, CORS-safelisted methods that pass a preflight without it.
  messagesStatus: 'warn',
  warnNote:
    ': the contract asks for it, but the bridge sends only GET and POST, CORS-safelisted methods that browsers let through without it',
});
