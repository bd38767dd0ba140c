/**
 * Reading a fixture (docs/replay-and-recording.md): JSON Lines, one step a line, blank lines and `//`
 * comments skipped. Each step is checked here, so a bad line stops the replay naming its line.
 */
export type Step =
  | { step: 'config'; options: Record<string, unknown>; line: number }
  | { step: 'post'; origin: string; data: unknown; line: number }
  | { step: 'host'; data: unknown; line: number }
  | {
      step: 'respond';
      method: string;
      path: string;
      status: number;
      body?: unknown;
      headers?: Record<string, string>;
      line: number;
    }
  | { step: 'fail'; method: string; path: string; line: number }
  | { step: 'hang'; method: string; path: string; line: number }
  | { step: 'offline'; line: number }
  | { step: 'online'; line: number }
  | { step: 'advance'; ms: number; line: number };

/** A fixture problem: exit status 1, with a message naming the fixture and line. */
export class ReplayError extends Error {
  override readonly name = 'ReplayError';
}

export function parseFixture(text: string, name: string): Step[] {
  const steps: Step[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('//')) return;
    const fail = (problem: string): never => {
      throw new ReplayError(`${name}:${line}: ${problem}`);
    };
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      fail('not valid JSON');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      fail('expected a JSON object with a "step" field');
    const entry = value as Record<string, unknown>;
    const string = (field: string) =>
      typeof entry[field] === 'string' ? (entry[field] as string) : fail(`"${field}" must be a string`);

    switch (entry['step']) {
      case 'config': {
        if (steps.length > 0) fail('"config" must come before every other step');
        const options = entry['options'];
        if (typeof options !== 'object' || options === null || Array.isArray(options))
          fail('"options" must be an object');
        steps.push({ step: 'config', options: options as Record<string, unknown>, line });
        return;
      }
      case 'post':
        if (!('data' in entry)) fail('"post" needs "data"');
        steps.push({ step: 'post', origin: string('origin'), data: entry['data'], line });
        return;
      case 'host':
        if (!('data' in entry)) fail('"host" needs "data"');
        steps.push({ step: 'host', data: entry['data'], line });
        return;
      case 'respond': {
        const status = entry['status'];
        if (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)
          fail('"status" must be an HTTP status (100-599)');
        const headers = entry['headers'];
        if (
          headers !== undefined &&
          (typeof headers !== 'object' ||
            headers === null ||
            Array.isArray(headers) ||
            !Object.values(headers).every((v) => typeof v === 'string'))
        ) {
          fail('"headers" must be an object of strings');
        }
        const respond: Step = {
          step: 'respond',
          method: string('method').toUpperCase(),
          path: pathOnly(string('path')),
          status: status as number,
          line,
        };
        if ('body' in entry) respond.body = entry['body'];
        if (headers !== undefined) respond.headers = headers as Record<string, string>;
        steps.push(respond);
        return;
      }
      case 'fail':
      case 'hang':
        steps.push({
          step: entry['step'],
          method: string('method').toUpperCase(),
          path: pathOnly(string('path')),
          line,
        });
        return;
      case 'offline':
      case 'online':
        steps.push({ step: entry['step'], line });
        return;
      case 'advance': {
        const ms = entry['ms'];
        if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) fail('"ms" must be a non-negative number');
        steps.push({ step: 'advance', ms: ms as number, line });
        return;
      }
      default:
        fail(typeof entry['step'] === 'string' ? `unknown step "${entry['step']}"` : 'missing "step"');
    }
  });
  return steps;
}

/** Paths are matched without their query string. */
export function pathOnly(path: string): string {
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}
