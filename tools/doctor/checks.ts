/**
 * The doctor's checks: each one question about the backend, asked the way a WebView running
 * the bridge would ask it, answered with what is wrong and how to fix it. A check FAILs only
 * for what breaks the bridge, and WARNs for what the contract asks for but the bridge does not
 * need. Checks share one probe, so a request several checks read is sent once.
 */
import { configCheck, rejectedTokenCheck } from './config-checks.js';
import {
  allowHeadersCheck,
  allowMethodsCheck,
  allowOriginCheck,
  configPreflightCheck,
  messagesPreflightCheck,
} from './preflight-checks.js';
import { exposeRetryAfterCheck, responseCorsCheck } from './response-checks.js';
import { messagesErrorCorsCheck, uploadLimitCheck } from './upload-checks.js';
import type { Check, CheckResult } from './check.js';
import { createProbe, type DoctorTarget } from './probe.js';

/** Every check, in the order the bridge meets the problems; the preflight it never sends comes last. */
const DOCTOR_CHECKS: readonly Check[] = [
  configCheck,
  responseCorsCheck,
  rejectedTokenCheck,
  messagesPreflightCheck,
  allowOriginCheck,
  allowHeadersCheck,
  allowMethodsCheck,
  exposeRetryAfterCheck,
  uploadLimitCheck,
  messagesErrorCorsCheck,
  configPreflightCheck,
];

export interface DoctorRun {
  results: CheckResult[];
  /** Token values met during the run, for the report to scrub. */
  secrets: string[];
}

/**
 * Runs the checks in order. Every request goes out at once, so a slow answer delays no other
 * check and none waits for another's timeout. A check whose request failed for a cause an
 * earlier check already failed on (the server is down, every path redirects) is skipped with
 * that reason instead of repeating it.
 */
export async function runDoctor(target: DoctorTarget, checks: readonly Check[] = DOCTOR_CHECKS): Promise<DoctorRun> {
  const probe = createProbe(target);
  probe.sendAll();
  const results: CheckResult[] = [];
  const failedOn = new Map<string, string>();
  for (const check of checks) {
    const { cause, ...outcome } = await check.run(probe);
    const earlier = cause === undefined ? undefined : failedOn.get(cause);
    if (cause !== undefined && earlier !== undefined) {
      results.push({
        name: check.name,
        status: 'skip',
        detail: `not checked: the same problem as "${earlier}" (${cause})`,
      });
      continue;
    }
    if (cause !== undefined && outcome.status === 'fail') failedOn.set(cause, check.name);
    results.push({ name: check.name, ...outcome });
  }
  return { results, secrets: probe.secrets() };
}
