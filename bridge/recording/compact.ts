/**
 * Recorded host commands keep attachments as `{name, type, size}` instead of their base64
 * bytes (docs/replay-and-recording.md allows `size` for this), so a recording stays small and the file
 * contents a user sent are not kept. Only valid commands are compacted; anything else is
 * recorded exactly as it came, so its parse error replays too.
 */
import type { HostCommand } from '../protocol/schemas.js';
import { attachmentSize } from '../protocol/service-rules.js';

export function compactCommand(command: HostCommand): HostCommand {
  const attachments = command.params?.['attachments'];
  if (!Array.isArray(attachments)) return command;
  return {
    ...command,
    params: {
      ...command.params,
      attachments: attachments.map((file: { name: string; type: string; data?: string; size?: number }) =>
        typeof file?.data === 'string' ? { name: file.name, type: file.type, size: attachmentSize(file) } : file,
      ),
    },
  };
}
