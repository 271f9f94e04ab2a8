/**
 * One readable line from an error vitest serialized: name and first message
 * line, no stack (the report is for the target's people, not ours; the
 * stack of a harness bug is in vitest's own output when debugging).
 */
export function errorLine(error: { name?: string; message?: string } | undefined): string {
  if (!error) return 'unknown error';
  const message = (error.message ?? '').split('\n').find((line) => line.trim() !== '') ?? '';
  const name =
    error.name && error.name !== 'Error' && !message.startsWith(error.name)
      ? `${error.name}: `
      : '';
  const line = `${name}${message.trim()}` || 'unknown error';
  return line.length > 500 ? `${line.slice(0, 497)}...` : line;
}
