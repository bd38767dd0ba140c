/**
 * Reading a fixture (tools/replay/fixture.ts): a bad line stops the replay naming its line.
 */
import { describe, expect, it } from 'vitest';
import { parseFixture, pathOnly, ReplayError } from '../../../../tools/replay/fixture.js';

const parse = (...lines: string[]) => parseFixture(lines.join('\n'), 'case.jsonl');

describe('parseFixture', () => {
  it('reads each step with its line, skipping blank lines and // comments', () => {
    const steps = parse(
      '{"step":"config","options":{"host":"ios"}}',
      '',
      '// the widget asks',
      '{"step":"respond","method":"get","path":"/config?website_token=x","status":200,"body":{"a":1},"headers":{"Retry-After":"1"}}',
      '{"step":"advance","ms":1500}',
      '{"step":"offline"}',
    );
    expect(steps).toEqual([
      { step: 'config', options: { host: 'ios' }, line: 1 },
      {
        step: 'respond',
        method: 'GET',
        path: '/config',
        status: 200,
        body: { a: 1 },
        headers: { 'Retry-After': '1' },
        line: 4,
      },
      { step: 'advance', ms: 1500, line: 5 },
      { step: 'offline', line: 6 },
    ]);
  });

  it('keeps an explicit null body apart from no body', () => {
    const [withNull, without] = parse(
      '{"step":"respond","method":"GET","path":"/a","status":204,"body":null}',
      '{"step":"respond","method":"GET","path":"/a","status":204}',
    );
    expect(withNull).toHaveProperty('body', null);
    expect(without).not.toHaveProperty('body');
  });

  it.each([
    ['not json', 'not valid JSON'],
    ['[1]', 'expected a JSON object with a "step" field'],
    ['{"nostep":1}', 'missing "step"'],
    ['{"step":"dance"}', 'unknown step "dance"'],
    ['{"step":"post","origin":"https://a"}', '"post" needs "data"'],
    ['{"step":"post","origin":7,"data":1}', '"origin" must be a string'],
    ['{"step":"respond","method":"GET","path":"/a","status":99}', '"status" must be an HTTP status (100-599)'],
    [
      '{"step":"respond","method":"GET","path":"/a","status":200,"headers":{"a":1}}',
      '"headers" must be an object of strings',
    ],
    ['{"step":"advance","ms":-1}', '"ms" must be a non-negative number'],
    ['{"step":"config","options":[]}', '"options" must be an object'],
  ])('refuses %s: %s, naming the fixture and line', (line, problem) => {
    expect(() => parse('// first', line)).toThrow(new ReplayError(`case.jsonl:2: ${problem}`));
  });

  it('refuses a config step after another step', () => {
    expect(() => parse('{"step":"online"}', '{"step":"config","options":{}}')).toThrow(
      'case.jsonl:2: "config" must come before every other step',
    );
  });
});

describe('pathOnly', () => {
  it('drops the query string', () => {
    expect(pathOnly('/conversations/1/messages?x=1&y=2')).toBe('/conversations/1/messages');
    expect(pathOnly('/config')).toBe('/config');
  });
});
