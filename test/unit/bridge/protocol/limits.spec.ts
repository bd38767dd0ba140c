/**
 * The limits both sides of the boundary check: the values the reference page promises hosts, and
 * the one property a chunk limit must have, that each chunk is whole base64 groups.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { unbase64 } from '../../../../bridge/bytes.js';
import { CHUNK_MAX, MAX_DEPTH, NAME_MAX } from '../../../../bridge/protocol/limits.js';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../../../${path}`, import.meta.url)), 'utf8');

describe('the limits hosts are told of', () => {
  it("are the ones docs/reference.md's appendAttachment row states: ids up to NAME_MAX, chunks up to CHUNK_MAX", () => {
    const row = read('docs/reference.md')
      .split('\n')
      .find((line) => line.startsWith('| `appendAttachment` |'));
    expect(row).toBeDefined();
    expect(row).toContain(`\`uploadId\` (1 to ${NAME_MAX} characters`);
    expect(row).toContain(`at most ${CHUNK_MAX.toLocaleString('en-US')} characters`);
  });

  it('cuts nesting where docs/security.md says: at MAX_DEPTH levels', () => {
    expect(read('docs/security.md')).toContain(`cut at ${MAX_DEPTH} levels of nesting`);
  });
});

describe('CHUNK_MAX', () => {
  it('is whole base64 groups, so each chunk of a base64 text decodes on its own to its part of the bytes', () => {
    expect(CHUNK_MAX % 4).toBe(0);
    const bytes = Uint8Array.from({ length: CHUNK_MAX + 1_000 }, (_, i) => (i * 7) & 0xff);
    const text = Buffer.from(bytes).toString('base64');
    const chunks = [text.slice(0, CHUNK_MAX), text.slice(CHUNK_MAX)];
    const parts = chunks.map((chunk) => new Uint8Array(unbase64(chunk)));
    expect(parts[0]?.length).toBe((CHUNK_MAX / 4) * 3);
    expect(Buffer.concat(parts).equals(Buffer.from(bytes))).toBe(true);
  });
});
