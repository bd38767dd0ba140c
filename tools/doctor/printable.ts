/**
 * What a server sent, made safe to print: the doctor quotes server messages, header values and
 * redirect targets, and a terminal obeys control characters. An escape sequence can clear the
 * screen, rewrite earlier lines or, as OSC 52, set the clipboard; C1 controls (U+0080–U+009F)
 * act as escapes on many terminals; bidirectional overrides reorder what is read. All go.
 */

/** ESC or C1 CSI/OSC/DCS sequences, whole (so no "[2J" is left behind), then any other control. */
const SEQUENCES =
  // eslint-disable-next-line no-control-regex -- control characters are what this finds
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?/g;
// eslint-disable-next-line no-control-regex -- as above
const CONTROLS = /[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: string): string {
  return text.replace(SEQUENCES, '').replace(CONTROLS, ' ');
}

/** Query parameters whose name says they hold a credential. */
const SECRET_PARAM = /token|secret|password|key|auth|sig/i;

/**
 * A URL a server named (a redirect's Location), printable without what it must not show: the
 * values of credential-named query parameters and any `user:password@`. Not a URL: as given.
 */
export function withoutQuerySecrets(location: string): string {
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return location;
  }
  url.username = '';
  url.password = '';
  for (const name of new Set(url.searchParams.keys()))
    if (SECRET_PARAM.test(name)) url.searchParams.set(name, 'REDACTED');
  return url.href.replace(/=REDACTED(?=&|#|$)/g, '=<redacted>');
}
