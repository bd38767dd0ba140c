/**
 * Runs a Node figure in its own process (child.mjs): a fresh heap for each, --expose-gc for the
 * memory figure, and --no-warnings so Node's warnings come back counted in the result.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./child.mjs', import.meta.url));

/**
 * @param {'throughput' | 'memory'} figure
 * @param {string} bridgePath the module written by bundleBridgeForNode
 * @returns {Promise<{ result: any, warnings: Array<{ name: string, count: number, message: string }> }>}
 */
export function runIsolated(figure, bridgePath) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--no-warnings', CHILD, figure, bridgePath], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${figure} figure failed (exit ${code}):\n${stderr || stdout}`));
      try {
        resolve(JSON.parse(last));
      } catch {
        reject(new Error(`${figure} figure printed no result:\n${stdout}\n${stderr}`));
      }
    });
  });
}
