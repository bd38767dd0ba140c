#!/usr/bin/env node
// @ts-check
/**
 * `npm start`: the reference backend (and its Chatwoot mode, on a free port, for the page's
 * backend picker) and the demo page, on different 127.0.0.1 ports, so
 * every API call the bridge makes from the page is a real cross-origin request with a real
 * CORS preflight.
 *
 *   node demo-page/serve.mjs [--backend-port 8787] [--page-port 8080]
 *
 * Ports also come from CHAT_BRIDGE_BACKEND_PORT / CHAT_BRIDGE_PAGE_PORT. A busy default port
 * falls back to a free one (the printed URLs are always the ones to open).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startReferenceBackend } from '../reference-backend/server.mjs';
import { startStaticServer } from './static-server.mjs';

export const DEFAULT_BACKEND_PORT = 8787;
export const DEFAULT_PAGE_PORT = 8080;

const DEMO_DIR = fileURLToPath(new URL('.', import.meta.url));
const DIST_DIR = fileURLToPath(new URL('../dist/', import.meta.url));

/**
 * Starts both servers. A port of 0 picks a free one; any other port that is taken falls back
 * to a free one.
 * @param {{ backendPort?: number, pagePort?: number }} [ports]
 * @returns {Promise<{ backend: import('../reference-backend/server.mjs').ReferenceBackend, backendUrl: string,
 *   chatwoot: import('../reference-backend/server.mjs').ReferenceBackend,
 *   pageUrl: string, close(): Promise<void> }>} pageUrl already names the backend in its query.
 */
export async function startDemo({ backendPort = DEFAULT_BACKEND_PORT, pagePort = DEFAULT_PAGE_PORT } = {}) {
  const backend = await withFallback(backendPort, (port) => startReferenceBackend({ port }));
  // The page is on another origin than the installation, so the Chatwoot mode runs with ENABLE_API_CORS.
  const chatwoot = await startReferenceBackend({ backend: 'chatwoot', enableApiCors: true, rackAttack: false }).catch(
    async (error) => {
      await backend.close();
      throw error;
    },
  );
  let page;
  try {
    page = await withFallback(pagePort, (port) =>
      startStaticServer({
        mounts: { '/': DEMO_DIR, '/dist/': DIST_DIR },
        port,
        // The page reads the backend's URL here, so it also works when opened without the query.
        routes: {
          '/demo-config.json': {
            type: 'application/json',
            body: () => JSON.stringify({ backendUrl: backend.url, chatwootUrl: chatwoot.url }),
          },
        },
      }),
    );
  } catch (error) {
    await Promise.all([backend.close(), chatwoot.close()]);
    throw error;
  }
  return {
    backend,
    backendUrl: backend.url,
    chatwoot,
    // Not percent-encoded: ":" and "/" are allowed in a query, and the printed URL stays readable.
    pageUrl: `${page.url}/?backend=${backend.url}`,
    async close() {
      await Promise.all([page.close(), backend.close(), chatwoot.close()]);
    },
  };
}

/**
 * @template T
 * @param {number} port
 * @param {(port: number) => Promise<T>} start
 * @returns {Promise<T>}
 */
async function withFallback(port, start) {
  try {
    return await start(port);
  } catch (error) {
    if (port === 0 || /** @type {NodeJS.ErrnoException} */ (error).code !== 'EADDRINUSE') throw error;
    console.warn(`Port ${port} is in use; using a free port instead.`);
    return start(0);
  }
}

/** @param {string | undefined} text @param {string} name */
function portOf(text, name) {
  if (text === undefined || text === '') return undefined;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${name} must be a port number from 0 to 65535, got "${text}"`);
  }
  return port;
}

async function main() {
  const { values } = parseArgs({
    options: {
      'backend-port': { type: 'string' },
      'page-port': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log('Usage: node demo-page/serve.mjs [--backend-port 8787] [--page-port 8080]');
    return;
  }
  const backendPort =
    portOf(values['backend-port'], '--backend-port') ??
    portOf(process.env['CHAT_BRIDGE_BACKEND_PORT'], 'CHAT_BRIDGE_BACKEND_PORT');
  const pagePort =
    portOf(values['page-port'], '--page-port') ?? portOf(process.env['CHAT_BRIDGE_PAGE_PORT'], 'CHAT_BRIDGE_PAGE_PORT');
  const demo = await startDemo({
    ...(backendPort === undefined ? {} : { backendPort }),
    ...(pagePort === undefined ? {} : { pagePort }),
  });
  console.log('');
  console.log(`  Reference backend:  ${demo.backendUrl}`);
  console.log(`  Chatwoot mode:      ${demo.chatwoot.url}`);
  console.log(`  Demo page:          ${demo.pageUrl}`);
  console.log('');
  console.log('  Open the demo page in a browser. Ctrl-C stops both servers.');
  console.log('');
  const stop = () => {
    void demo.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  main().catch((error) => {
    console.error(`Could not start the demo: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
