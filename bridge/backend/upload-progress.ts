/**
 * Upload progress for the host's UI, thinned out so that a fast upload does not flood the
 * host's channel: a report once 250 ms have passed or 5% more of the body has gone since the
 * last one, whichever comes first, and one when the whole body is sent. Nothing is repeated:
 * an upload that stalls reports nothing until it moves again.
 */
import type { ProgressListener } from '../environment.js';
import type { UploadProgress } from '../protocol/messages.js';

export function throttledProgress(now: () => number, report: (progress: UploadProgress) => void): ProgressListener {
  let at = -Infinity;
  let last = -1;
  return (sentBytes, totalBytes) => {
    const time = now();
    if (
      sentBytes !== last &&
      (sentBytes === totalBytes || time - at >= 250 || Math.abs(sentBytes - last) * 20 >= totalBytes)
    ) {
      at = time;
      last = sentBytes;
      report({ sentBytes, totalBytes });
    }
  };
}
