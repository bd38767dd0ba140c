/**
 * What one doctor check is and what it answers. Below the checks and the runner that lists them
 * (checks.ts), so every check module, the gates and the report import these types downward.
 */
import type { Probe } from './probe.js';

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  name: string;
  status: CheckStatus;
  /** What was seen; never a token value. */
  detail: string;
  /** What to change on the backend, for `fail` and `warn`. */
  fix?: string;
}

/** A check's result before naming; `cause` marks a request that got no answer or a redirect. */
export type CheckOutcome = Omit<CheckResult, 'name'> & { cause?: string };

export interface Check {
  name: string;
  run(probe: Probe): Promise<CheckOutcome>;
}
