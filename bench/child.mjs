/**
 * Entry of the child processes isolated.mjs starts: runs one Node figure against the bridge
 * module at argv[3] and prints its result as the last stdout line. Warnings are collected and
 * reported once in the result (the process runs with --no-warnings) instead of flooding the table.
 */
import { importBridge } from './bridge-module.mjs';
import { measureMemory } from './memory.mjs';
import { measureThroughput } from './throughput.mjs';

const FIGURES = { throughput: measureThroughput, memory: measureMemory };

const [, , figure, bridgePath] = process.argv;
const measure = FIGURES[/** @type {keyof typeof FIGURES} */ (figure)];
if (measure === undefined || bridgePath === undefined)
  throw new Error(`usage: child.mjs ${Object.keys(FIGURES).join('|')} BRIDGE_MODULE`);

/** @type {Map<string, { count: number, message: string }>} */
const warnings = new Map();
process.on('warning', (warning) => {
  const seen = warnings.get(warning.name);
  if (seen) seen.count++;
  else warnings.set(warning.name, { count: 1, message: warning.message });
});

const result = await measure(await importBridge(bridgePath));
const warningList = [...warnings].map(([name, { count, message }]) => ({ name, count, message }));
process.stdout.write(`\n${JSON.stringify({ result, warnings: warningList })}\n`);
