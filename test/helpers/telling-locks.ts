/**
 * Locks as the Web Locks API gives them, which also say when a request waits (`query().pending`):
 * tools/testing's memory locks, shared by everything given the same `scope`, plus `waiting`.
 */
import type { Locks } from '../../bridge/environment.js';
import { memoryLocks } from '../../tools/testing/in-memory-environment.js';

export function tellingLocks(scope: object): Locks {
  const locks = memoryLocks(scope);
  const waiting = new Map<string, number>();
  const count = (name: string, by: number) => waiting.set(name, (waiting.get(name) ?? 0) + by);
  return {
    held: locks.held,
    request(name, work) {
      count(name, 1);
      return locks.request(name, () => (count(name, -1), work()));
    },
    waiting: async (name) => (waiting.get(name) ?? 0) > 0,
  };
}
