/**
 * When an answer says nothing about what a check reads: it never came, or it was a redirect
 * (which a WebView never follows on a preflight, and which the bridge refuses on its own
 * requests with `redirect: 'error'`). The check that owns the request gives the verdict; every
 * other check reading it says it was not checked and why, instead of a remedy for a header it
 * never saw.
 */
import type { CheckOutcome } from './check.js';
import type { Exchange } from './probe.js';
import { withoutQuerySecrets } from './printable.js';

export type Answered = Extract<Exchange, { answered: true }>;

export interface Unusable {
  /** The same for every request the one problem spoils (a dead server, a site-wide redirect), so it is reported once. */
  cause: string;
  /** What happened, after the request's label: "got no answer (...)", "was redirected (301) to https://...". */
  said: string;
}

export const isRedirect = (status: number) => status >= 300 && status <= 399;

export function unusable(exchange: Exchange): Unusable | undefined {
  if (!exchange.answered) return { cause: exchange.reason, said: `got no answer (${exchange.reason})` };
  if (!isRedirect(exchange.status)) return undefined;
  const location = exchange.headers.get('location');
  return {
    cause: `a ${exchange.status} redirect to ${originOf(location)}`,
    // The origin only: the owner's verdict shows the whole Location once.
    said: `was redirected (${exchange.status}) to ${originOf(location)}`,
  };
}

/** A preflight says nothing about its headers unless it answered 2xx: browsers stop at the status. */
export function unusablePreflight(exchange: Exchange): Unusable | undefined {
  const gate = unusable(exchange);
  if (gate !== undefined || !exchange.answered || (exchange.status >= 200 && exchange.status <= 299)) return gate;
  return { cause: `${exchange.label} answered ${exchange.status}`, said: `answered ${exchange.status}` };
}

/** The verdict of the check that owns a request that got no answer or a redirect. */
export function ownerVerdict(
  exchange: Exchange,
  status: 'fail' | 'warn',
  redirectFix: string,
  note = '',
): CheckOutcome {
  const cause = unusable(exchange)?.cause;
  const base = cause === undefined ? {} : { cause };
  if (!exchange.answered) return { status, detail: `${exchange.reason}${note}`, fix: exchange.fix, ...base };
  return {
    status,
    detail: `answered ${exchange.status}, a redirect to ${locationOf(exchange)}${note}`,
    fix: redirectFix,
    ...base,
  };
}

/** A request a check could not read, and the check that reports on it. */
export interface Skipped {
  label: string;
  said: string;
  owner: string;
}

export const skippedFor = (exchange: Exchange, gate: Unusable, owner: string): Skipped => ({
  label: exchange.label,
  said: gate.said,
  owner,
});

/** "GET /config and GET /config with a wrong token got no answer (...), see "GET /config"": one statement a cause. */
function describeSkipped(skipped: readonly Skipped[]): string {
  const bySaid = new Map<string, Skipped[]>();
  for (const entry of skipped) bySaid.set(entry.said, [...(bySaid.get(entry.said) ?? []), entry]);
  return [...bySaid]
    .map(([said, entries]) => {
      const owners = [...new Set(entries.map((entry) => `"${entry.owner}"`))].join(' and ');
      const verb = entries.length > 1 ? said.replace(/^was /, 'were ') : said;
      return `${entries.map((entry) => entry.label).join(' and ')} ${verb}, see ${owners}`;
    })
    .join('; ');
}

/** The SKIP of a check that could read none of its requests. */
export function notChecked(skipped: readonly Skipped[] | string): CheckOutcome {
  return { status: 'skip', detail: `not checked: ${typeof skipped === 'string' ? skipped : describeSkipped(skipped)}` };
}

/** "; not checked on ...", after the verdict on the requests that could be read. */
export const notCheckedOn = (skipped: readonly Skipped[]) =>
  skipped.length > 0 ? `; not checked on ${describeSkipped(skipped)}` : '';

function locationOf(exchange: Answered): string {
  const location = exchange.headers.get('location');
  return location === null ? '(no Location)' : withoutQuerySecrets(location);
}

function originOf(location: string | null): string {
  if (location === null) return '(no Location)';
  try {
    return new URL(location).origin;
  } catch {
    return location;
  }
}
