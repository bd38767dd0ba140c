/**
 * Whose `message` events count, one rule for the bridge (classify.ts) and the starter, which
 * keeps events before the bridge exists (startup/starter.ts).
 *
 * An empty origin means a same-realm synthetic event: how react-native-webview delivers the
 * native side's postMessage. Other frames always carry their real origin.
 */
export function fromAllowedOrigin(origin: string, allowed: ReadonlySet<string> | '*'): boolean {
  return origin === '' || allowed === '*' || allowed.has(origin);
}
