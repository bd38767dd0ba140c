/**
 * The doctor's output: one line per check, plain ASCII markers so logs stay readable on any
 * terminal or CI, or one JSON document with --json. Here, the last step before anything is
 * printed, so no check has to remember to: every token value met during the run is scrubbed by
 * the bridge's own redactor (every encoding it knows), and control characters a server sent are
 * taken out (printable.ts).
 */
import { createRedactor } from '../../bridge/index.js';
import type { CheckResult, CheckStatus } from './check.js';
import type { DoctorRun } from './checks.js';
import { printable } from './printable.js';

const MARKERS: Record<CheckStatus, string> = { pass: 'PASS', warn: 'WARN', fail: 'FAIL', skip: 'SKIP' };

export interface ReportContext {
  baseUrl: string;
  origin: string;
}

/** Whether the run should exit non-zero: any failed check (warnings and skips after a failure do not add to it). */
export function failed(run: DoctorRun): boolean {
  return run.results.some((result) => result.status === 'fail');
}

/** The human report: a heading, one line per check, a summary line. */
export function formatText(run: DoctorRun, context: ReportContext): string {
  const lines = [`chat-bridge doctor: ${context.baseUrl} as a WebView on ${context.origin} sees it`];
  for (const result of run.results) lines.push(printable(formatLine(result)));
  const count = (status: CheckStatus) => run.results.filter((result) => result.status === status).length;
  const failures = count('fail');
  const summary =
    failures === 0
      ? `OK: ${count('pass')} of ${run.results.length} checks passed`
      : `${failures} of ${run.results.length} checks failed`;
  const extras = [
    count('warn') > 0 ? `${count('warn')} warning(s)` : '',
    count('skip') > 0 ? `${count('skip')} skipped` : '',
  ].filter(Boolean);
  lines.push(extras.length > 0 ? `${summary} (${extras.join(', ')}).` : `${summary}.`);
  return `${redactorOf(run).scrub(lines.join('\n'))}\n`;
}

/** `FAIL name: detail. Fix: fix` on one line, so grep finds the whole story. */
function formatLine(result: CheckResult): string {
  const fix =
    result.fix !== undefined && (result.status === 'fail' || result.status === 'warn') ? `. Fix: ${result.fix}` : '';
  return `${MARKERS[result.status]} ${result.name}: ${result.detail}${fix}`;
}

/** `{ok, baseUrl, origin, checks: [{name, status, detail, fix?}]}` for scripts. */
export function formatJson(run: DoctorRun, context: ReportContext): string {
  const document = { ok: !failed(run), baseUrl: context.baseUrl, origin: context.origin, checks: run.results };
  // Scrubbed value by value: a token with characters JSON escapes would not be found in the text.
  // JSON escapes C0 controls, not C1 ones, so those go first.
  const text = JSON.stringify(
    redactorOf(run).scrub(document),
    (_key, value: unknown) => (typeof value === 'string' ? printable(value) : value),
    2,
  );
  return `${text}\n`;
}

/** The bridge's redactor, knowing every token of the run (the CLI refuses website tokens too short to scrub). */
function redactorOf(run: DoctorRun) {
  const redactor = createRedactor();
  run.secrets.forEach((secret) => redactor.add(secret));
  return redactor;
}
