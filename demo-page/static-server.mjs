// @ts-check
/**
 * A small static file server for the demo page and the browser tests: serves a folder and
 * `dist/` on 127.0.0.1, with optional extra headers (a strict Content-Security-Policy, say).
 * Paths are resolved inside their root only, so `..` cannot reach other files.
 */
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
};

/**
 * @param {{ mounts: Record<string, string>, port?: number, headers?: Record<string, string>,
 *   pages?: Record<string, string>, routes?: Record<string, { type: string, body: () => string }> }} options
 *   mounts: URL prefix → folder (e.g. {'/': 'demo-page', '/dist/': 'dist'});
 *   pages: exact path → HTML text served as is (for test pages built in code);
 *   routes: exact path → generated text of any type (the demo's /demo-config.json).
 * @returns {Promise<{ url: string, port: number, close(): Promise<void> }>}
 */
export async function startStaticServer({ mounts, port = 0, headers = {}, pages = {}, routes = {} }) {
  const roots = Object.entries(mounts)
    .map(([prefix, folder]) => /** @type {const} */ ([prefix, resolve(folder)]))
    .sort((a, b) => b[0].length - a[0].length);

  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    const send = (/** @type {number} */ status, /** @type {string | Buffer} */ body, /** @type {string} */ type) => {
      response.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
      response.end(body);
    };
    if (Object.prototype.hasOwnProperty.call(pages, path))
      return send(200, /** @type {string} */ (pages[path]), TYPES['.html']);
    const generated = Object.prototype.hasOwnProperty.call(routes, path) ? routes[path] : undefined;
    if (generated !== undefined) return send(200, generated.body(), generated.type);
    for (const [prefix, root] of roots) {
      if (!path.startsWith(prefix)) continue;
      let file = normalize(join(root, path.slice(prefix.length)));
      if (file !== root && !file.startsWith(root + sep)) return send(403, 'forbidden', 'text/plain');
      if (path.endsWith('/')) file = join(file, 'index.html');
      try {
        const body = await readFile(file);
        return send(200, body, TYPES[/** @type {keyof typeof TYPES} */ (extname(file))] ?? 'application/octet-stream');
      } catch {
        return send(404, 'not found', 'text/plain');
      }
    }
    send(404, 'not found', 'text/plain');
  });
  // Rejects (EADDRINUSE...) instead of leaving an unhandled 'error' event, so callers can pick another port.
  await new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', fail);
      done(undefined);
    });
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done(undefined));
      }),
  };
}
