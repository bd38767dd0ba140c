/**
 * `chat-bridge doctor`: reads the command line, runs the checks against the backend and prints
 * the report. Exit status 0 when every check passed (warnings allowed), 1 when one failed;
 * bad usage throws UsageError, which the CLI turns into exit 2.
 */
import { parseArgs } from 'node:util';
import { runChatwootDoctor } from '../doctor/chatwoot-checks.js';
import { runDoctor } from '../doctor/checks.js';
import type { DoctorTarget } from '../doctor/probe.js';
import { failed, formatJson, formatText } from '../doctor/report.js';
import { MIN_TOKEN_LENGTH, normalizeOptions, OptionsError } from '../../bridge/index.js';
import { UsageError } from './usage-error.js';

/** A page origin typical of a hosted widget; WebViews loading a local page send their own. */
const DEFAULT_ORIGIN = 'https://app.example.com';
/** Long enough for a slow backend, short enough that a hung one is reported within seconds. */
const DEFAULT_TIMEOUT_MS = 10_000;

const USAGE = `Usage: chat-bridge doctor --base-url URL --website-token TOKEN [--backend contract|chatwoot] [--origin ORIGIN] [--timeout MS] [--max-file-size BYTES] [--json]

Checks a self-hosted backend as a WebView running the bridge will use it. Prints one line per
check (PASS, WARN, FAIL, SKIP) with the fix for each problem; never prints a token.
--backend chatwoot checks a Chatwoot installation's widget API (--base-url is its root, such as
https://chat.example.com; --origin is the page's, the installation's own for the widget page).
It makes one contact, as a first load of the widget does; its upload check sends a file of
Chatwoot's 40 MiB (or --max-file-size, at most that) with a made-up X-Auth-Token, so nothing is stored.
Exit status: 0 all checks passed, 1 a check failed, 2 bad usage.
`;

export async function doctorCommand(
  argv: string[],
  out: (text: string) => void,
  _err: (text: string) => void,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'base-url': { type: 'string' },
      'website-token': { type: 'string' },
      origin: { type: 'string' },
      backend: { type: 'string' },
      timeout: { type: 'string' },
      'max-file-size': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    out(USAGE);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`doctor takes no positional arguments (got "${positionals[0]}")`);
  const websiteToken = values['website-token'];
  if (websiteToken === undefined || websiteToken.trim() === '')
    throw new UsageError("doctor needs --website-token TOKEN (the widget inbox's website token)");
  // The bridge refuses shorter ones, and a token that short could not be kept out of the report.
  if (websiteToken.length < MIN_TOKEN_LENGTH)
    throw new UsageError(`--website-token must be ${MIN_TOKEN_LENGTH}+ characters, as the bridge requires`);
  const origin = parseOrigin(values.origin ?? DEFAULT_ORIGIN);
  const baseUrl = parseBaseUrl(values['base-url'], origin);
  const timeoutMs = parseTimeout(values.timeout);
  const backend = values.backend ?? 'contract';
  if (backend !== 'contract' && backend !== 'chatwoot')
    throw new UsageError(`--backend must be contract or chatwoot; got "${backend}"`);

  const maxFileSize = parseMaxFileSize(values['max-file-size']);
  const target: DoctorTarget = {
    baseUrl,
    websiteToken,
    origin,
    fetch: (url: string, init: RequestInit) => fetch(url, init),
    timeoutMs,
    ...(maxFileSize !== undefined && { maxFileSize }),
  };
  const run = await (backend === 'chatwoot' ? runChatwootDoctor(target) : runDoctor(target));
  const context = { baseUrl, origin };
  out(values.json ? formatJson(run, context) : formatText(run, context));
  return failed(run) ? 1 : 0;
}

/** The bridge's own baseUrl rules, so the doctor never accepts a URL the bridge would refuse. */
function parseBaseUrl(value: string | undefined, origin: string): string {
  if (value === undefined)
    throw new UsageError("doctor needs --base-url URL (the API root, as given to the bridge's baseUrl)");
  try {
    return normalizeOptions({ baseUrl: value }, origin).baseUrl;
  } catch (error) {
    if (error instanceof OptionsError) throw new UsageError(`--base-url ${error.problem}; got "${value}"`);
    throw error;
  }
}

function parseOrigin(value: string): string {
  // WebViews showing a file:// or data: page send the opaque origin "null".
  if (value === 'null') return value;
  let origin: string | undefined;
  try {
    origin = new URL(value).origin;
  } catch {
    // reported below
  }
  if (origin !== value)
    throw new UsageError(
      `--origin must be an origin such as ${DEFAULT_ORIGIN} (scheme, host, optional port, no path), or null; got "${value}"`,
    );
  return value;
}

function parseTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  const ms = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(ms) || ms <= 0)
    throw new UsageError(`--timeout must be a positive number of milliseconds; got "${value}"`);
  return ms;
}

/**
 * The bridge's `maxFileSize` option, in bytes: the file the upload check sends. Left out, the
 * upload check takes the bridge's default for the backend (upload-checks.ts `uploadSize`).
 */
function parseMaxFileSize(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const bytes = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(bytes) || bytes < 1)
    throw new UsageError(
      `--max-file-size must be a positive number of bytes, as the bridge's maxFileSize; got "${value}"`,
    );
  return bytes;
}
