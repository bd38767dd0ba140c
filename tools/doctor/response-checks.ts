/**
 * CORS on the answers themselves (the two `GET /config` answers, 200 and 401): without a right
 * `Access-Control-Allow-Origin` the WebView hides the answer behind a network error, which
 * breaks the bridge; without `Retry-After` exposed the bridge still works, on its own backoff.
 */
import { allowOriginFix, allowOriginProblem, exposesRetryAfter } from './cors.js';
import type { Check, CheckOutcome } from './check.js';
import { notChecked, notCheckedOn as notOn, skippedFor, unusable, type Answered, type Skipped } from './gates.js';
import { messagesPreflight, type Probe } from './probe.js';

const CONFIG_CHECK = 'GET /config';
const REJECTED_TOKEN_CHECK = 'rejected website token';

/** The config answers a check can read, and why the others cannot be. */
async function configAnswers(probe: Probe): Promise<{ answers: Answered[]; skipped: Skipped[] }> {
  const answers: Answered[] = [];
  const skipped: Skipped[] = [];
  for (const [exchange, owner] of [
    [await probe.config('given'), CONFIG_CHECK],
    [await probe.config('wrong'), REJECTED_TOKEN_CHECK],
  ] as const) {
    const gate = unusable(exchange);
    if (gate !== undefined) skipped.push(skippedFor(exchange, gate, owner));
    else if (exchange.answered) answers.push(exchange);
  }
  return { answers, skipped };
}

export const responseCorsCheck: Check = {
  name: 'CORS on API responses',
  async run(probe): Promise<CheckOutcome> {
    const { answers, skipped } = await configAnswers(probe);
    if (answers.length === 0) return notChecked(skipped);
    // problem -> the answers showing it, so one missing header reads as one statement.
    const problems = new Map<string, string[]>();
    const fixes = new Set<string>();
    const seen: string[] = [];
    for (const answer of answers) {
      const value = answer.headers.get('access-control-allow-origin');
      const problem = allowOriginProblem(value, probe.target.origin);
      if (problem === undefined) {
        seen.push(`${answer.label} (${answer.status})`);
        continue;
      }
      problems.set(problem, [...(problems.get(problem) ?? []), `the ${answer.status} answer of ${answer.label}`]);
      fixes.add(allowOriginFix(value, probe.target.origin));
    }
    if (problems.size > 0) {
      const detail = [...problems]
        .map(([problem, where]) => `Access-Control-Allow-Origin ${problem} on ${where.join(' and ')}`)
        .join('; ');
      return {
        status: 'fail',
        detail: `${detail}: the WebView reports a network error instead of the answer${notOn(skipped)}`,
        fix: `${[...fixes].join('; ')} (nginx: "add_header ... always", or error answers go out without it)`,
      };
    }
    return { status: 'pass', detail: `Access-Control-Allow-Origin right on ${seen.join(' and on ')}${notOn(skipped)}` };
  },
};

/**
 * A warning: the bridge works without it, but after a 429 a cross-origin page can read
 * `Retry-After` only when it is exposed, so the bridge falls back to its own backoff instead of
 * the delay the server asked for. Browsers read Expose-Headers from actual answers only, so a
 * preflight's copy does not count.
 */
export const exposeRetryAfterCheck: Check = {
  name: 'CORS Access-Control-Expose-Headers',
  async run(probe): Promise<CheckOutcome> {
    const { answers, skipped } = await configAnswers(probe);
    if (answers.length === 0) return notChecked(skipped);
    const hidden = answers.filter((answer) => !exposesRetryAfter(answer.headers.get('access-control-expose-headers')));
    if (hidden.length === 0)
      return { status: 'pass', detail: `Retry-After is exposed to the page on GET /config answers${notOn(skipped)}` };
    const preflight = await messagesPreflight(probe);
    const onPreflightOnly =
      preflight.answered && exposesRetryAfter(preflight.headers.get('access-control-expose-headers'));
    const where = hidden.map((answer) => `the ${answer.status} answer of ${answer.label}`).join(' and ');
    const sent = hidden[0]?.headers.get('access-control-expose-headers') ?? null;
    return {
      status: 'warn',
      detail:
        `Retry-After is not exposed on ${where}${onPreflightOnly ? ' (only the preflight sends it, where browsers ignore it)' : ''}: ` +
        `after a 429 the bridge cannot read the server's delay and falls back to its own backoff${notOn(skipped)}`,
      fix:
        sent === null
          ? 'send "Access-Control-Expose-Headers: Retry-After" on every API response (429 answers above all)'
          : `add Retry-After to Access-Control-Expose-Headers ("${sent.trim()}, Retry-After") on every API response`,
    };
  },
};
