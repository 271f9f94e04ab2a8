/** §1: objects belong to exactly one mode; keys of a mode see only its objects. */
export const MODES = ['test', 'live'] as const;
export type Mode = (typeof MODES)[number];
