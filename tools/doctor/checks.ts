/**
 * The doctor's checks: each one question about the backend, asked the way a WebView running
 * the bridge would ask it, answered with what is wrong and how to fix it. Checks share one
 * probe, so a request several checks read (a preflight, the config) is sent once.
 */
import { configCheck, rejectedTokenCheck } from './config-checks.js';
import {
  allowHeadersCheck,
  allowMethodsCheck,
  allowOriginCheck,
  configPreflightCheck,
  exposeRetryAfterCheck,
  messagesPreflightCheck,
  responseCorsCheck,
} from './cors-checks.js';
import { createProbe, type DoctorTarget, type Probe } from './probe.js';

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

/** Every check, in the order a WebView meets the problems. */
export const DOCTOR_CHECKS: readonly Check[] = [
  configPreflightCheck,
  messagesPreflightCheck,
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
