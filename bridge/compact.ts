/**
 * Recorded host commands keep attachments as `{name, type, size}` instead of their base64
 * bytes (shared/FIXTURES.md allows `size` for this), so a recording stays small and the file
 * contents a user sent are not kept.
 */
export function compactAttachments(data: unknown): unknown {
  if (typeof data === 'string') {
    if (!data.includes('"attachments"')) return data;
    try {
      const compacted = compactObject(JSON.parse(data));
      return compacted === undefined ? data : JSON.stringify(compacted);
    } catch {
      return data;
    }
  }
  return compactObject(data) ?? data;
}

function compactObject(value: unknown): unknown {
  const params = (value as { params?: { attachments?: unknown } } | null)?.params;
  if (typeof params !== 'object' || params === null || !Array.isArray(params.attachments)) return undefined;
  const attachments = params.attachments.map((file: unknown) => {
    if (typeof file !== 'object' || file === null) return file;
    const { data, ...rest } = file as { data?: unknown };
    if (typeof data !== 'string') return file;
    const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
    return { ...rest, size: Math.floor(data.length / 4) * 3 - padding };
  });
  return { ...(value as object), params: { ...params, attachments } };
}
