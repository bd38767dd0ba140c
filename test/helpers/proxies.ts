/**
 * Real reverse proxies for the tests: Debian's nginx and Caddy, started on 127.0.0.1 with a
 * configuration the test writes into a temporary folder (nginx's pid, logs and temp files too), in
 * front of a reference backend. Each runs in the foreground as a child of the test, and `stop`
 * ends that one process.
 *
 * Without nginx or Caddy, `requireProxy()` says so loudly; under CI=true it fails the run
 * instead, since a CI that skips its proxy tests proves nothing.
 *
 * The configurations docs/backend.md shows are read from it (`docsConfig`), so what a self-hoster
 * copies is what runs here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NGINX_PATH = process.env['NGINX_PATH'] ?? '/usr/sbin/nginx';
export const CADDY_PATH = process.env['CADDY_PATH'] ?? '/usr/bin/caddy';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** True when the proxy can run; without it, throws under CI=true and warns otherwise. */
export function requireProxy(name: 'nginx' | 'caddy'): boolean {
  const path = name === 'nginx' ? NGINX_PATH : CADDY_PATH;
  if (existsSync(path)) return true;
  const message = `${name} not found at ${path}: the proxy tests cannot run. Install it with "apt-get install -y ${
    name === 'nginx' ? 'nginx-light' : 'caddy'
  }" (see .ci/run).`;
  if (process.env['CI'] === 'true') throw new Error(message);
  console.warn(`\n!!! ${message} They are SKIPPED on this machine. !!!\n`);
  return false;
}

/** A free port on 127.0.0.1 (free when asked: the proxy binds it right after). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function listening(port: number, child: ChildProcess, log: () => Promise<string>): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the proxy exited (${child.exitCode}): ${await log()}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (up) return;
    if (Date.now() - started > 10_000) throw new Error(`the proxy did not listen on ${port}: ${await log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface RunningProxy {
  /** http://127.0.0.1:<port>, the base URL the bridge is given. */
  readonly url: string;
  readonly port: number;
  /** The proxy's own log (nginx's error log, Caddy's output). */
  log(): Promise<string>;
  /** nginx: every request it answered, as "METHOD /path status", in order. */
  requests(): Promise<string[]>;
  stop(): Promise<void>;
}

async function run(
  command: string,
  args: (folder: string) => string[],
  files: (folder: string) => Record<string, string>,
  port: number,
  logFile: string,
): Promise<RunningProxy> {
  const folder = await mkdtemp(join(tmpdir(), 'chat-bridge-proxy-'));
  await mkdir(join(folder, 'logs'));
  await mkdir(join(folder, 'tmp'));
  for (const [name, text] of Object.entries(files(folder))) await writeFile(join(folder, name), text);
  const env = { ...process.env, HOME: folder, XDG_DATA_HOME: folder, XDG_CONFIG_HOME: folder };
  const child = spawn(command, args(folder), { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
  const log = async () =>
    Buffer.concat(chunks).toString() + (await readFile(join(folder, 'logs', logFile), 'utf8').catch(() => ''));
  try {
    await listening(port, child, log);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    log,
    requests: async () =>
      (await readFile(join(folder, 'logs', 'access.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/**
 * nginx in the foreground, one process (`master_process off`: no workers switching to another
 * user), with `http` (its `{{PORT}}` and `{{UPSTREAM}}` filled in) inside its `http` block.
 */
export async function startNginx(http: string, upstream: string): Promise<RunningProxy> {
  const port = await freePort();
  const conf = `daemon off;
master_process off;
pid nginx.pid;
error_log logs/error.log info;
events {}
http {
  log_format lines '$request_method $uri $status';
  access_log logs/access.log lines;
  client_body_temp_path tmp/body;
  proxy_temp_path tmp/proxy;
  fastcgi_temp_path tmp/fastcgi;
  uwsgi_temp_path tmp/uwsgi;
  scgi_temp_path tmp/scgi;
${fill(http, port, upstream)}
}
`;
  return run(
    NGINX_PATH,
    (folder) => ['-p', `${folder}/`, '-c', 'nginx.conf'],
    () => ({ 'nginx.conf': conf }),
    port,
    'error.log',
  );
}

/** Caddy in the foreground, its admin endpoint off, with `site` (`{{PORT}}`, `{{UPSTREAM}}` filled in). */
export async function startCaddy(site: string, upstream: string): Promise<RunningProxy> {
  const port = await freePort();
  const caddyfile = `{
\tadmin off
\tauto_https off
}
${fill(site, port, upstream)}
`;
  return run(
    CADDY_PATH,
    () => ['run', '--config', 'Caddyfile', '--adapter', 'caddyfile'],
    () => ({ Caddyfile: caddyfile }),
    port,
    'output.log',
  );
}

/** `upstream`: host:port of the backend. The docs' example ports (8080 and 3000) are replaced too. */
function fill(text: string, port: number, upstream: string): string {
  return text
    .split('{{PORT}}')
    .join(String(port))
    .split('{{UPSTREAM}}')
    .join(upstream)
    .replace(/listen 8080;/g, `listen 127.0.0.1:${port};`)
    .replace(/^:8080 \{/m, `http://127.0.0.1:${port} {`)
    .replace(/127\.0\.0\.1:3000/g, upstream);
}

/**
 * The fenced block of `language` (nginx, caddy) under a page's "Behind a reverse proxy" (docs/backend.md's
 * unless told: docs/chatwoot.md has its own), as a self-hoster copies it.
 */
export function docsConfig(language: 'nginx' | 'caddy', file = 'backend.md'): string {
  const page = readFileSync(join(ROOT, 'docs', file), 'utf8');
  const section = page.split('## Behind a reverse proxy')[1]?.split(/\n## /)[0] ?? '';
  const block = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(section);
  if (!block) throw new Error(`docs/${file} has no ${language} block under "Behind a reverse proxy"`);
  return block[1] as string;
}

export interface Forwarder {
  /** host:port for the proxy's upstream. */
  readonly upstream: string;
  /** Stops listening (connections refused: the proxy answers 502) for `ms`, then listens again. */
  restart(ms: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP forwarder to the backend, standing in for the app server's own port: `restart` closes it
 * and opens it again, as an app server restarting behind the proxy does.
 */
export async function startForwarder(target: string): Promise<Forwarder> {
  const port = await freePort();
  const [host, targetPort] = target.split(':') as [string, string];
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const open = async () => {
    const listener = createServer((client) => {
      const upstream = connect(Number(targetPort), host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => (client.destroy(), upstream.destroy()));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => listener.listen(port, '127.0.0.1', resolve));
    server = listener;
  };
  const shut = async () => {
    const listener = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (listener) await new Promise((resolve) => listener.close(resolve));
  };
  await open();
  return {
    upstream: `127.0.0.1:${port}`,
    async restart(ms) {
      await shut();
      await new Promise((resolve) => setTimeout(resolve, ms));
      await open();
    },
    close: shut,
  };
}
