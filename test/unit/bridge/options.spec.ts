import { describe, expect, it } from 'vitest';
import { normalizeOptions, OptionsError } from '../../../bridge/options.js';
import { DEFAULTS } from '../../../bridge/protocol/bridge-options.js';

const PAGE = 'https://app.example.test';
const BASE = 'https://chat.example.test/api/v1';

const resolve = (extra: Record<string, unknown> = {}) => normalizeOptions({ baseUrl: BASE, ...extra }, PAGE);

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

/** Asserts an OptionsError whose message names `option` in quotes. */
function expectOptionsError(run: () => unknown, option: string): void {
  const error = thrownBy(run);
  expect(error).toBeInstanceOf(OptionsError);
  expect((error as Error).name).toBe('OptionsError');
  expect((error as Error).message).toContain(`"${option}"`);
}

describe('bad values', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'https://chat.example.test'],
    ['a number', 1],
  ])('rejects %s as the options object', (_name, input) => {
    expectOptionsError(() => normalizeOptions(input, PAGE), 'options');
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['not a string', 42],
    ['relative', '/api/v1'],
    ['not a URL', 'chat.example.test'],
    ['ftp', 'ftp://chat.example.test/api'],
    ['javascript:', 'javascript:alert(1)'],
    ['with a query string', `${BASE}?locale=en`],
    ['with a bare query marker', `${BASE}?`],
    ['with a fragment', `${BASE}#top`],
    ['with a bare fragment marker', `${BASE}#`],
  ])('rejects a baseUrl that is %s', (_name, baseUrl) => {
    expectOptionsError(() => normalizeOptions(baseUrl === undefined ? {} : { baseUrl }, PAGE), 'baseUrl');
  });

  const positiveIntegers = ['maxFileSize', 'maxMessageLength', 'requestTimeout', 'commandTimeout'];
  const badPositive: Array<[string, unknown]> = [
    ['zero', 0],
    ['negative', -1],
    ['fractional', 1.5],
    ['a numeric string', '100'],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['null', null],
  ];
  for (const option of positiveIntegers) {
    it.each(badPositive)(`rejects ${option} that is %s`, (_name, value) => {
      expectOptionsError(() => resolve({ [option]: value }), option);
    });
  }

  for (const option of ['limit', 'baseDelay', 'maxDelay']) {
    it.each([
      ['negative', -1],
      ['fractional', 0.5],
      ['a string', '3'],
    ])(`rejects retry.${option} that is %s`, (_name, value) => {
      expectOptionsError(() => resolve({ retry: { [option]: value } }), `retry.${option}`);
    });
  }

  it.each([
    ['a number', 3],
    ['a string', 'fast'],
    ['true', true],
  ])('rejects retry that is %s', (_name, value) => {
    expectOptionsError(() => resolve({ retry: value }), 'retry');
  });

  for (const option of ['widgetPrefix', 'androidChannel', 'iosHandler', 'flutterChannel', 'browserEvent']) {
    it.each([
      ['empty', ''],
      ['a number', 1],
      ['null', null],
    ])(`rejects ${option} that is %s`, (_name, value) => {
      expectOptionsError(() => resolve({ [option]: value }), option);
    });
  }

  it.each([
    ['a number', 12345],
    ['an object', { token: 'x' }],
    ['null', null],
  ])('rejects a websiteToken that is %s', (_name, value) => {
    expectOptionsError(() => resolve({ websiteToken: value }), 'websiteToken');
  });

  it.each([
    ['unknown', 'windows-phone'],
    ['differently cased', 'Android'],
    ['a number', 1],
  ])('rejects a host that is %s', (_name, value) => {
    expectOptionsError(() => resolve({ host: value }), 'host');
  });

  it.each([
    ['a single origin string', 'https://app.example.test'],
    ['an array with an empty origin', ['https://a.test', '']],
    ['an array with a number', ['https://a.test', 5]],
    ['an object', { 'https://a.test': true }],
    ['null', null],
  ])('rejects allowedOrigins that is %s', (_name, value) => {
    expectOptionsError(() => resolve({ allowedOrigins: value }), 'allowedOrigins');
  });

  it.each([
    ['a string', 'true'],
    ['a number', 1],
  ])('rejects record that is %s', (_name, value) => {
    expectOptionsError(() => resolve({ record: value }), 'record');
  });
});

describe('defaults', () => {
  it('fills every option with its documented default', () => {
    const options = resolve();
    expect(options).toMatchObject({
      baseUrl: BASE,
      apiOrigin: 'https://chat.example.test',
      websiteToken: undefined,
      host: undefined,
      maxFileSize: 5_242_880,
      widgetPrefix: 'chatwoot-widget',
      maxMessageLength: 1_048_576,
      requestTimeout: 15_000,
      commandTimeout: 50_000,
      retry: { limit: 4, baseDelay: 1_000, maxDelay: 10_000 },
      record: false,
      androidChannel: 'ChatBridgeAndroid',
      iosHandler: 'chatBridge',
      flutterChannel: 'ChatBridgeFlutter',
      browserEvent: 'chatbridge',
    });
    expect(DEFAULTS.maxFileSize).toBe(options.maxFileSize);
  });

  it('defaults allowedOrigins to the origin of baseUrl and the page origin', () => {
    const { allowedOrigins } = normalizeOptions(
      { baseUrl: 'https://chat.example.test:8443/api/v1/' },
      'http://localhost:3000',
    );
    expect(allowedOrigins).not.toBe('*');
    expect([...(allowedOrigins as ReadonlySet<string>)].sort()).toEqual([
      'http://localhost:3000',
      'https://chat.example.test:8443',
    ]);
  });

  it('uses the given allowedOrigins as they are, without adding the defaults', () => {
    const { allowedOrigins } = resolve({ allowedOrigins: ['https://widget.example.test'] });
    expect([...(allowedOrigins as ReadonlySet<string>)]).toEqual(['https://widget.example.test']);
  });

  it("keeps allowedOrigins '*' as the wildcard", () => {
    expect(resolve({ allowedOrigins: '*' }).allowedOrigins).toBe('*');
  });

  it('fills missing retry fields from the defaults and keeps the given ones', () => {
    expect(resolve({ retry: { limit: 0 } }).retry).toEqual({ limit: 0, baseDelay: 1_000, maxDelay: 10_000 });
  });

  it('treats an empty websiteToken as none', () => {
    expect(resolve({ websiteToken: '' }).websiteToken).toBeUndefined();
    expect(resolve({ websiteToken: 'wt_x12' }).websiteToken).toBe('wt_x12');
  });

  it('refuses a websiteToken under 6 characters, without quoting it', () => {
    for (const websiteToken of ['w', 'wt_x1']) {
      expectOptionsError(() => resolve({ websiteToken }), 'websiteToken');
      expect(() => resolve({ websiteToken })).toThrow(/6\+ characters/);
      try {
        resolve({ websiteToken });
      } catch (error) {
        expect((error as Error).message).not.toContain(`"${websiteToken}"`);
      }
    }
  });

  it('takes forwardConversationToken as a boolean, off by default', () => {
    expect(resolve({}).forwardConversationToken).toBe(false);
    expect(resolve({ forwardConversationToken: true }).forwardConversationToken).toBe(true);
    expectOptionsError(() => resolve({ forwardConversationToken: 'yes' }), 'forwardConversationToken');
  });

  it('accepts each host name and record: true', () => {
    for (const host of ['react-native', 'android', 'ios', 'flutter', 'browser'])
      expect(resolve({ host }).host).toBe(host);
    expect(resolve({ record: true }).record).toBe(true);
  });
});

describe('derived values', () => {
  it('derives maxCommandLength to admit 5 attachments of maxFileSize in base64 wrapped at 76 columns plus maxMessageLength', () => {
    // 4,000 base64 characters, 53 lines of at most 76, each with an escaped "\r\n" (4 characters).
    expect(resolve({ maxFileSize: 3_000, maxMessageLength: 100 }).maxCommandLength).toBe(5 * (4_000 + 53 * 4) + 100);
    // base64 rounds up to whole 4-character groups: 3001 bytes need 1001 groups.
    expect(resolve({ maxFileSize: 3_001, maxMessageLength: 100 }).maxCommandLength).toBe(5 * (4_004 + 53 * 4) + 100);
    const base64 = Math.ceil(5_242_880 / 3) * 4;
    expect(resolve().maxCommandLength).toBe(5 * (base64 + Math.ceil(base64 / 76) * 4) + 1_048_576);
    const wrapped = JSON.stringify(Buffer.alloc(3_000).toString('base64').replace(/.{76}/g, '$&\r\n'));
    expect(wrapped.length - 2).toBeLessThanOrEqual(4_000 + 53 * 4);
  });

  it.each([
    ['https://chat.example.test/api/v1/', 'https://chat.example.test/api/v1'],
    ['https://chat.example.test/api/v1//', 'https://chat.example.test/api/v1'],
    ['https://chat.example.test/', 'https://chat.example.test'],
    ['https://chat.example.test', 'https://chat.example.test'],
    ['HTTPS://Chat.Example.Test/api', 'https://chat.example.test/api'],
  ])('normalizes baseUrl %s to %s', (input, expected) => {
    expect(resolve({ baseUrl: input }).baseUrl).toBe(expected);
  });
});

describe('backend', () => {
  it("is the contract's by default, with the service's 5 MiB (its MIME types are the profile's, profile.spec.ts)", () => {
    const options = resolve();
    expect(options.backend).toBe('contract');
    expect(options.maxFileSize).toBe(DEFAULTS.maxFileSize);
    expect(resolve({ maxFileSize: 100 * 1024 * 1024 }).maxFileSize).toBe(100 * 1024 * 1024);
  });

  it("takes Chatwoot's 40 MiB on 'chatwoot' (its type list is the profile's, chatwoot-profile.spec.ts); maxFileSize lowers the limit, never raises it", () => {
    const options = resolve({ backend: 'chatwoot' });
    expect(options.backend).toBe('chatwoot');
    expect(options.maxFileSize).toBe(40 * 1024 * 1024);
    expect(resolve({ backend: 'chatwoot', maxFileSize: 1024 }).maxFileSize).toBe(1024);
    expect(resolve({ backend: 'chatwoot', maxFileSize: 100 * 1024 * 1024 }).maxFileSize).toBe(40 * 1024 * 1024);
  });

  it('refuses any other backend, naming the option', () => {
    expect(() => resolve({ backend: 'intercom' })).toThrow(
      new OptionsError('backend', 'must be one of contract, chatwoot'),
    );
  });
});
