// Types of http.mjs, for the tests of how a reproduction sends.
export interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}
export interface Answered {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
  overCap: boolean;
}
export const MAX_BODY: number;
export class NoAnswer extends Error {
  readonly code: string;
}
export function closeConnections(): void;
export function send(req: SentRequest): Promise<Answered>;
export function sendTogether(reqs: readonly SentRequest[]): Promise<Answered[]>;
