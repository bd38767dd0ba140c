/**
 * Base64 to bytes: what attachments go through between a command (base64) and storage or an
 * upload (bytes). Checked against Node's own base64, which no code here shares.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { unbase64 } from '../../../bridge/bytes.js';

const bytesOf = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)];
/** Every byte value, so no character range of base64 goes unchecked. */
const allBytes = Uint8Array.from({ length: 256 }, (_, i) => i);

describe('unbase64', () => {
  it('reads back every byte value of standard padded base64', () => {
    expect(bytesOf(unbase64(Buffer.from(allBytes).toString('base64')))).toEqual([...allBytes]);
    expect(bytesOf(unbase64('+/8='))).toEqual([0xfb, 0xff]);
  });

  it('reads several MiB, the same as Node does in one go', () => {
    const large = Buffer.alloc(3 * 1024 * 1024 + 7);
    for (let i = 0; i < large.length; i++) large[i] = (i * 31) & 0xff;
    expect(Buffer.from(unbase64(large.toString('base64'))).equals(large)).toBe(true);
  });

  it('skips whitespace (lines wrapped at 76 columns) and forgives missing padding', () => {
    const text = Buffer.from(allBytes).toString('base64');
    expect(bytesOf(unbase64(text.replace(/.{76}/g, '$&\n')))).toEqual([...allBytes]);
    expect(bytesOf(unbase64('+/8'))).toEqual([0xfb, 0xff]);
  });

  it('throws on text that is not base64, as atob does', () => {
    expect(() => unbase64('not base64!')).toThrow();
    expect(() => unbase64('A')).toThrow();
  });

  describe('where the engine has Uint8Array.fromBase64', () => {
    const Uint8 = Uint8Array as { fromBase64?: (text: string) => Uint8Array };
    afterEach(() => void delete Uint8.fromBase64);

    it('decodes with it instead of atob, and returns its bytes', () => {
      const read: string[] = [];
      // An engine's own decoder, standing in where Node has none (Node 20): it must be what is used.
      Uint8.fromBase64 = (text) => {
        read.push(text);
        return new Uint8Array(Buffer.from(text, 'base64'));
      };
      expect(bytesOf(unbase64('AAEC/w=='))).toEqual([0, 1, 2, 255]);
      expect(read).toEqual(['AAEC/w==']);
    });
  });
});
