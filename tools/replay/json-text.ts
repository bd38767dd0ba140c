/**
 * `JSON.stringify` for values JSON.parse made, without recursion. A fixture may carry a body
 * nested thousands deep (the point of such a fixture: what the bridge does with it); JSON.parse
 * reads that, but the engine's serializer and `structuredClone` recurse and overflow the stack.
 */
export function jsonText(value: unknown): string {
  const out: string[] = [];
  // What is still to write, last first. Punctuation goes as String objects, which no parsed
  // JSON value is.
  const todo: unknown[] = [value];
  const mark = (text: string) => new String(text);
  while (todo.length > 0) {
    const item = todo.pop();
    if (item instanceof String) out.push(String(item));
    else if (Array.isArray(item)) {
      todo.push(mark(']'));
      for (let index = item.length - 1; index >= 0; index--) {
        todo.push(item[index] === undefined ? null : item[index]);
        if (index > 0) todo.push(mark(','));
      }
      todo.push(mark('['));
    } else if (typeof item === 'object' && item !== null) {
      const entries = Object.entries(item).filter(([, member]) => member !== undefined);
      todo.push(mark('}'));
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, member] = entries[index] as [string, unknown];
        todo.push(member, mark(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`));
      }
      todo.push(mark('{'));
    } else out.push(JSON.stringify(item) ?? 'null');
  }
  return out.join('');
}
