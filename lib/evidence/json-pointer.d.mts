// Types of json-pointer.mjs (plain JavaScript, carried as it is by every reproduction).

export function valueAt(body: unknown, pointer: string): unknown;
export function unescapeToken(token: string): string;
