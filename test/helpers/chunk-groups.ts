/**
 * How a real engine's bridge checks a chunk's base64 (`appendAttachment`), where it decodes with
 * the engine's own `Uint8Array.fromBase64` (the unit specs run in Node 20, which has none, and
 * cover atob's path): wrapped and padded chunks are taken, a chunk cut inside a 4-character group
 * is refused with the same answer as there, and the bytes arrive whole.
 */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { StoredMessage } from './page-servers.js';
import type { ScenarioPage } from './scenario-page.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** In the page: whether the engine decodes base64 natively (the path under test). */
export const HAS_FROM_BASE64_JS = `typeof Uint8Array.fromBase64 === 'function'`;

export async function expectChunkGroupsChecked(
  tab: ScenarioPage,
  storedMessages: () => Promise<StoredMessage[]>,
): Promise<void> {
  const file = Buffer.from(Array.from({ length: 30 }, (_, i) => (i * 37 + 11) & 255));
  const text = file.toString('base64');
  const append = (uploadId: string, index: number, data: string) =>
    tab.call('appendAttachment', { uploadId, index, data });

  // Wrapped as Android's Base64.DEFAULT wraps: the line break is skipped.
  expect(await append('g', 0, `${text.slice(0, 4)}\r\n${text.slice(4, 8)}`)).toMatchObject({ result: { size: 6 } });
  expect(await append('g', 1, text.slice(8, 18))).toMatchObject({
    ok: false,
    error: {
      code: 'parse_error',
      message: '[appendAttachment] invalid params: data must be base64 in 4-character groups',
    },
  });
  expect(await append('g', 1, `${text.slice(8)}\n`)).toMatchObject({ result: { size: 30 } });
  // Each chunk may end in padding: a host that encodes each read on its own.
  expect(await append('p', 0, Buffer.from('a').toString('base64'))).toMatchObject({ result: { size: 1 } });
  expect(await append('p', 1, Buffer.from('bc').toString('base64'))).toMatchObject({ result: { size: 3 } });

  const sent = await tab.call('sendMessage', {
    content: 'groups',
    attachments: [
      { name: 'g.jpg', type: 'image/jpeg', uploadId: 'g' },
      { name: 'p.jpg', type: 'image/jpeg', uploadId: 'p' },
    ],
  });
  expect(sent).toMatchObject({ ok: true });
  const [stored] = await storedMessages();
  expect(stored?.attachments.map(({ size, sha256: hash }) => [size, hash])).toEqual([
    [30, sha256(file)],
    [3, sha256(Buffer.from('abc'))],
  ]);
}
