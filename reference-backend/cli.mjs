#!/usr/bin/env node
// @ts-check
/**
 * Starts the reference backend for the demo page:
 *   node reference-backend/cli.mjs --port 8787 [--website-token wt_demo]...
 * Listens on 127.0.0.1 only; Ctrl-C stops it.
 */
import { parseArgs } from 'node:util';
import { startReferenceBackend } from './server.mjs';

const USAGE =
  'Usage: node reference-backend/cli.mjs [--port 8787] [--website-token wt_demo]... [--backend contract|chatwoot] [--enable-api-cors]';

/** @type {ReturnType<typeof parseArgs<{options: {port: {type: 'string'}, 'website-token': {type: 'string', multiple: true}, backend: {type: 'string'}, 'enable-api-cors': {type: 'boolean'}, help: {type: 'boolean'}}}>>['values']} */
let values;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string' },
      'website-token': { type: 'string', multiple: true },
      backend: { type: 'string' },
      'enable-api-cors': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  }));
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const port = values.port === undefined ? 8787 : Number(values.port);
const websiteTokens = values['website-token'];

try {
  const mode = values.backend === 'chatwoot' ? 'chatwoot' : values.backend === undefined ? 'contract' : values.backend;
  const backend = await startReferenceBackend({
    port,
    ...(websiteTokens ? { websiteTokens } : {}),
    backend: /** @type {'contract' | 'chatwoot'} */ (mode),
    enableApiCors: values['enable-api-cors'] === true,
  });
  // The website tokens are demo values the operator typed; auth tokens are never printed.
  console.log(`Reference backend (${mode}) listening on ${backend.url}`);
  const stop = () => {
    void backend.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(`Could not start the reference backend: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
