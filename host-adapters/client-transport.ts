/**
 * How a typed client hands its commands to the bridge: the one interface a host implements
 * (`ChatBridge.receive`, `injectJavaScript`, `postMessage`...). Apart from the calls in flight
 * (client-calls.ts), so that the public declarations name only these types.
 */

/** One host command as the bridge receives it. */
export interface ClientCommand {
  id: string;
  method: string;
  params?: object;
}

export interface ClientTransport {
  /**
   * Hands a command to the bridge: `ChatBridge.receive`, `injectJavaScript`, `postMessage`...
   * `json` is the command as JSON text, already checked to serialise. Return `false` when the
   * bridge cannot take it now (the WebView is not mounted): the client keeps it, and every later
   * call, until `release()`. A throw rejects the call with `network_error`.
   */
  send(command: ClientCommand, json: string): boolean | void;
}
