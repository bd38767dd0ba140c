/**
 * The in-memory parts of an Environment that the replay and the Node tests both need: storage
 * over a Map (shared across bridges, to model a reload) and a listener list for the
 * `message` and connectivity events a test or fixture fires itself.
 */
import type { KeyValueStorage } from '../../bridge/index.js';

export function mapStorage(map: Map<string, string>): KeyValueStorage {
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

export interface Listeners<T> {
  /** The Environment side: adds a listener, returns its removal. */
  subscribe(listener: (value: T) => void): () => void;
  /** The driver side: calls every listener. */
  fire(value: T): void;
}

export function listeners<T>(): Listeners<T> {
  const set = new Set<(value: T) => void>();
  return {
    subscribe(listener) {
      set.add(listener);
      return () => void set.delete(listener);
    },
    fire: (value) => set.forEach((listener) => listener(value)),
  };
}
