/**
 * Every token a doctor run met, read from its own traffic (the global fetch, wrapped while the
 * run lasts), so "the output carries no token" is checked against what was really sent and
 * received rather than a guess at its shape: website tokens in URLs, `X-Auth-Token` and
 * `Authorization` values, and the `auth_token`/`authToken`/`pubsub_token` a config answer hands out.
 * The output must then hold none of them in any encoding a report could turn one into.
 */
import { expect } from 'vitest';
import { main } from '../../tools/cli/main.js';

const TOKEN_PARAMS = ['website_token', 'cw_conversation'];
const TOKEN_HEADERS = ['x-auth-token', 'authorization'];
const TOKEN_FIELDS = /"(auth_token|authToken|pubsub_token)"\s*:\s*"([^"]+)"/g;

/** Runs `run` with fetch recording tokens; the run must use the global fetch at call time (the CLI does). */
export async function withTokensRecorded<T>(run: () => Promise<T>): Promise<{ result: T; tokens: Set<string> }> {
  const tokens = new Set<string>();
  const original = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    for (const name of TOKEN_PARAMS) {
      const value = url.searchParams.get(name);
      if (value) tokens.add(value);
    }
    const headers = new Headers(init?.headers);
    for (const name of TOKEN_HEADERS) {
      const value = headers.get(name)?.replace(/^Bearer /, '');
      if (value) tokens.add(value);
    }
    const response = await original(input, init);
    if (/json/.test(response.headers.get('content-type') ?? ''))
      for (const [, , value] of (await response.clone().text()).matchAll(TOKEN_FIELDS)) if (value) tokens.add(value);
    return response;
  };
  try {
    return { result: await run(), tokens };
  } finally {
    globalThis.fetch = original;
  }
}

/** The forms a token takes in text: as is, URL-encoded, JSON-escaped, base64 and base64url, and each JWT part. */
export function encodingsOf(token: string): string[] {
  const parts = token.split('.').filter((part) => part.length >= 16);
  return [
    token,
    encodeURIComponent(token),
    JSON.stringify(token).slice(1, -1),
    Buffer.from(token).toString('base64').replace(/=+$/, ''),
    Buffer.from(token).toString('base64url'),
    ...(parts.length > 1 ? parts : []),
  ];
}

/** No recorded token, in any of its encodings, in `output`. */
export function expectNoToken(output: string, tokens: Set<string>): void {
  for (const token of tokens)
    for (const form of encodingsOf(token))
      expect(output, `a form of a token: ${form.slice(0, 6)}…`).not.toContain(form);
}

/**
 * `chat-bridge doctor --backend chatwoot` run in the test's process, its stdout and stderr in one
 * `out`, which must hold the website token and no token the run met, in any encoding.
 */
export async function chatwootDoctor(baseUrl: string, websiteToken: string, origin: string, extra: string[]) {
  let out = '';
  const args = ['doctor', '--backend', 'chatwoot', '--base-url', baseUrl, '--website-token', websiteToken];
  const write = (text: string) => void (out += text);
  const { result: code, tokens } = await withTokensRecorded(() =>
    main([...args, '--origin', origin, ...extra], write, write),
  );
  expect(tokens).toContain(websiteToken);
  expectNoToken(out, tokens);
  return { code, out, tokens };
}
