/**
 * Opt-in fuzz row (`npm run bench -- --fuzz`): the inbound property suite of test/fuzz with
 * FUZZ_RUNS=1000000 scenarios, through vitest, timed. It takes long, so it is not in the
 * default bench, and never in `npm test` (which runs the suite's default count).
 */
import { spawn } from 'node:child_process';
import { ROOT } from './deps.mjs';

export const FUZZ_RUNS = 1_000_000;

/** @returns {Promise<{ passed: boolean, seconds: number, tail: string }>} */
export function runFuzz(runs = FUZZ_RUNS) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('npx', ['vitest', 'run', 'test/fuzz'], {
      cwd: ROOT,
      env: { ...process.env, FUZZ_RUNS: String(runs) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // eslint-disable-next-line no-control-regex
      const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
      resolve({ passed: code === 0, seconds, tail: plain.trim().split('\n').slice(-12).join('\n') });
    });
  });
}
