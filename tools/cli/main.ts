/**
 * `chat-bridge`: the command-line tool. `replay` plays a fixture; `doctor` checks a
 * self-hosted backend. Exit status: 0 done, 1 a failed check or a fixture problem, 2 bad usage.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { HOST_NAMES, type HostName } from '../../bridge/index.js';
import { lineDiff } from '../replay/diff.js';
import { ReplayError } from '../replay/fixture.js';
import { replay } from '../replay/replay.js';
import { UsageError } from './usage-error.js';

/** What `replay` does and its options: in the general help, and with its own usage line in `replay --help`. */
const REPLAY_TEXT = `replay   Plays a fixture (JSON Lines) through the real bridge with a virtual clock and the
         fixture's scripted HTTP answers, and prints one JSON line per request the bridge made
         and per payload a host's channel received. The fixture format:
         https://github.com/chat-bridge/chat-bridge/blob/main/docs/replay-and-recording.md
  --host HOST        react-native | android | ios | flutter | browser | all
                     (all: every adapter's deliveries, from one run)
  --expect GOLDEN    compare the output with GOLDEN; on a difference print a line diff, exit 1
  --update           with --expect: write the output to GOLDEN instead of comparing
`;

const REPLAY_USAGE = `Usage: chat-bridge replay FILE --host HOST [--expect GOLDEN [--update]]

${REPLAY_TEXT}
Exit status: 0 done (or the output matches GOLDEN), 1 a difference or a fixture error, 2 bad usage.
`;

const HELP = `Usage:
  chat-bridge replay FILE --host HOST [--expect GOLDEN [--update]]
  chat-bridge doctor --base-url URL --website-token TOKEN [--backend contract|chatwoot] [--origin ORIGIN]
  chat-bridge --help

${REPLAY_TEXT}
doctor   Checks a self-hosted backend as a WebView will use it: the CORS preflight and its
         headers, GET /config and its authToken, a rejected token's 401 body, whether
         Retry-After is exposed to the page, and an upload of maxFileSize (a proxy's body limit). One line per check; exit 1 if any fails.
  --base-url URL        the API root, as given to the bridge's baseUrl
  --backend chatwoot    check a Chatwoot installation's widget API instead (--base-url: its root):
                        config, X-Auth-Token, same origin or ENABLE_API_CORS, a 40 MiB upload
  --website-token TOKEN a website token of a widget inbox (never printed)
  --origin ORIGIN       the page origin to test CORS for (default: https://app.example.com)
  --timeout MS          how long to wait for each answer (default: 10000)
  --max-file-size BYTES the bridge's maxFileSize: the upload check sends a file this big
                        (default: the bridge's, 5242880; 41943040, Chatwoot's limit, with --backend chatwoot)
  --json                print the results as one JSON document instead of lines

Exit status: 0 success, 1 a difference, a failed check or a fixture error, 2 bad usage.
`;

export async function main(argv: string[], out: (text: string) => void, err: (text: string) => void): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined) {
      // No command is a usage error: the help goes where errors go.
      err(HELP);
      return 2;
    }
    if (command === '--help' || command === '-h' || command === 'help') {
      out(HELP);
      return 0;
    }
    if (command === 'replay') return await replayCommand(rest, out, err);
    if (command === 'doctor') {
      const { doctorCommand } = await import('./doctor-command.js');
      return await doctorCommand(rest, out, err);
    }
    throw new UsageError(`unknown command "${command}"`);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      err(`chat-bridge: ${(error as Error).message}\nRun "chat-bridge --help" for usage.\n`);
      return 2;
    }
    if (error instanceof ReplayError) {
      err(`chat-bridge: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

async function replayCommand(
  argv: string[],
  out: (text: string) => void,
  err: (text: string) => void,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      host: { type: 'string' },
      expect: { type: 'string' },
      update: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    out(REPLAY_USAGE);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('replay takes exactly one fixture file');
  const host = values.host;
  if (host === undefined) throw new UsageError(`replay needs --host (${HOST_NAMES.join(', ')}, all)`);
  if (host !== 'all' && !HOST_NAMES.includes(host as HostName))
    throw new UsageError(`unknown host "${host}"; one of ${HOST_NAMES.join(', ')}, all`);
  if (values.update && values.expect === undefined) throw new UsageError('--update needs --expect GOLDEN');

  const file = positionals[0] as string;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  const output = await replay(text, {
    host: host as HostName | 'all',
    name: file,
    onWarning: (message) => err(`warning: ${message}\n`),
  });

  if (values.expect === undefined) {
    out(output);
    return 0;
  }
  if (values.update) {
    writeFileSync(values.expect, output);
    out(`updated ${values.expect}\n`);
    return 0;
  }
  let golden: string;
  try {
    golden = readFileSync(values.expect, 'utf8');
  } catch (error) {
    // No golden to match is a difference, not bad usage: the run still tells what it produced.
    err(
      `${file}: cannot read ${values.expect} (${(error as NodeJS.ErrnoException).code ?? 'error'}); use --update to create it\n`,
    );
    return 1;
  }
  if (golden === output) return 0;
  err(`${file}: output differs from ${values.expect} (--- expected, +++ actual):\n${lineDiff(golden, output)}`);
  return 1;
}

/**
 * Run as a script (`node dist/cli.js replay ...`) rather than imported by bin/chat-bridge.js, the
 * module runs the command too: otherwise it would only define `main` and exit 0, printing nothing.
 */
const script = process.argv[1];
if (script !== undefined && import.meta.url === pathToFileURL(script).href)
  void main(
    process.argv.slice(2),
    (text) => process.stdout.write(text),
    (text) => process.stderr.write(text),
  ).then((status) => (process.exitCode = status));
