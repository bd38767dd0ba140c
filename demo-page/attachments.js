// @ts-check
/**
 * Files as sendMessage takes them, `{name, type, data}` with the bytes in base64: picked from
 * disk, or made up on the page for the "Try an error" buttons.
 */

/** @typedef {{name: string, type: string, data: string}} Attachment */

/** @param {Uint8Array} bytes */
function base64(bytes) {
  let binary = '';
  // In slices: spreading megabytes into one fromCharCode call overflows the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * An attachment made on the page.
 * @param {string} name
 * @param {string} type
 * @param {Uint8Array} bytes
 * @returns {Attachment}
 */
export const generated = (name, type, bytes) => ({ name, type, data: base64(bytes) });

/** UTF-8 bytes of a text, for a generated text file. @param {string} s */
export const textBytes = (s) => new TextEncoder().encode(s);

/**
 * A file picked from disk; no type known means application/octet-stream.
 * @param {File} file
 * @returns {Promise<Attachment>}
 */
export function readFile(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve({
        name: file.name,
        type: file.type || 'application/octet-stream',
        data: url.slice(url.indexOf(',') + 1),
      });
    };
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}
