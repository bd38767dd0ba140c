import { describe, expect, it } from 'vitest';
import { compactCommand } from '../../../../bridge/recording/compact.js';
import type { HostCommand } from '../../../../bridge/protocol/schemas.js';

describe('compactCommand', () => {
  it('replaces attachment data with its decoded size, keeping name and type', () => {
    const command: HostCommand = {
      id: 's1',
      method: 'sendMessage',
      params: {
        content: 'files',
        attachments: [
          { name: 'a.png', type: 'image/png', data: 'AAAAAAAA' },
          { name: 'b.txt', type: 'text/plain', data: 'AAA=' },
          { name: 'c.pdf', type: 'application/pdf', data: 'AA==' },
        ],
      },
    };
    expect(compactCommand(command)).toEqual({
      id: 's1',
      method: 'sendMessage',
      params: {
        content: 'files',
        attachments: [
          { name: 'a.png', type: 'image/png', size: 6 },
          { name: 'b.txt', type: 'text/plain', size: 2 },
          { name: 'c.pdf', type: 'application/pdf', size: 1 },
        ],
      },
    });
  });

  it('uses the decoded size, not a declared one, when both are given', () => {
    const command: HostCommand = {
      id: 's',
      method: 'sendMessage',
      params: { attachments: [{ name: 'a', type: 'image/png', data: 'AAAA', size: 999 }] },
    };
    expect((compactCommand(command).params?.['attachments'] as unknown[])[0]).toEqual({
      name: 'a',
      type: 'image/png',
      size: 3,
    });
  });

  it('keeps attachments that carry only a size, and entries that are not objects, as they are', () => {
    const attachments = [{ name: 'm.mp4', type: 'video/mp4', size: 12_582_912 }, null, 'x'];
    const command: HostCommand = { id: 's', method: 'sendMessage', params: { attachments } };
    expect(compactCommand(command).params?.['attachments']).toEqual(attachments);
  });

  it('returns commands without attachments unchanged', () => {
    const plain: HostCommand = { id: 'i', method: 'init' };
    const text: HostCommand = { id: 't', method: 'sendMessage', params: { content: 'hi' } };
    expect(compactCommand(plain)).toBe(plain);
    expect(compactCommand(text)).toBe(text);
  });

  it('does not change the command it was given', () => {
    const command: HostCommand = {
      id: 's',
      method: 'sendMessage',
      params: { attachments: [{ name: 'a', type: 'image/png', data: 'AAAA' }] },
    };
    const copy = structuredClone(command);
    compactCommand(command);
    expect(command).toEqual(copy);
  });
});
