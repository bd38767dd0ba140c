/**
 * A backend that misbehaves on purpose, on 127.0.0.1 with permissive CORS: each route answers
 * with the status and the raw body text the test sets (so a body may nest deeper than any
 * serializer could write it, or echo a token in any encoding). Every request is logged.
 */
import { createServer } from 'node:http';

export interface HostileReply {
  status: number;
  /** Sent as-is, as `application/json`. */
  body: string;
}

export interface HostileBackend {
  url: string;
  /** "METHOD /path" (no query) → the reply; a route without one answers 404. */
  routes: Map<string, HostileReply>;
  /** "METHOD /path?query" of every request but preflights, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startHostileBackend(): Promise<HostileBackend> {
  const routes = new Map<string, HostileReply>();
  const requests: string[] = [];
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const cors = {
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': 'Content-Type, Authorization',
      };
      if (request.method === 'OPTIONS') return void response.writeHead(204, cors).end();
      const url = new URL(request.url ?? '/', 'http://x');
      requests.push(`${request.method} ${url.pathname}${url.search}`);
      const reply = routes.get(`${request.method} ${url.pathname}`) ?? { status: 404, body: '{"message":"no route"}' };
      response.writeHead(reply.status, { ...cors, 'content-type': 'application/json' }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    routes,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
