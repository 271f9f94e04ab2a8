import type { Statement } from 'better-sqlite3';
import type { Mode } from '../domain/modes.js';
import type { Db } from './db.js';

export interface WebhookEndpoint {
  seq: number;
  id: string;
  mode: Mode;
  url: string;
  events: string[];
  createdAt: number;
}

/** A webhook endpoint as both storage engines keep it. */
export interface EndpointRow {
  seq: number;
  id: string;
  mode: string;
  url: string;
  events: string;
  created_at: number;
}

export function endpointFromRow(row: EndpointRow): WebhookEndpoint {
  return {
    seq: row.seq,
    id: row.id,
    mode: row.mode as Mode,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    createdAt: row.created_at,
  };
}

const COLUMNS = 'seq, id, mode, url, events, created_at';

/** §6 webhook endpoints. Deleted ones are kept (soft delete) but never listed or counted. */
export class WebhookEndpointStore {
  readonly #insert: Statement<[string, string, string, string, string, number]>;
  readonly #byId: Statement<[string, string, string], EndpointRow>;
  readonly #page: Statement<[string, string, number, number], EndpointRow>;
  readonly #count: Statement<[string, string], { n: number }>;
  readonly #delete: Statement<[number, string]>;

  constructor(db: Db) {
    this.#insert = db.prepare(
      'INSERT INTO webhook_endpoints (id, account_id, mode, url, events, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.#byId = db.prepare(
      `SELECT ${COLUMNS} FROM webhook_endpoints
       WHERE account_id = ? AND mode = ? AND id = ? AND deleted_at IS NULL`,
    );
    this.#page = db.prepare(
      `SELECT ${COLUMNS} FROM webhook_endpoints
       WHERE account_id = ? AND mode = ? AND deleted_at IS NULL AND seq < ?
       ORDER BY seq DESC LIMIT ?`,
    );
    this.#count = db.prepare(
      'SELECT count(*) AS n FROM webhook_endpoints WHERE account_id = ? AND mode = ? AND deleted_at IS NULL',
    );
    this.#delete = db.prepare('UPDATE webhook_endpoints SET deleted_at = ? WHERE id = ?');
  }

  insert(accountId: string, endpoint: Omit<WebhookEndpoint, 'seq'>): WebhookEndpoint {
    const info = this.#insert.run(
      endpoint.id,
      accountId,
      endpoint.mode,
      endpoint.url,
      JSON.stringify(endpoint.events),
      endpoint.createdAt,
    );
    return { ...endpoint, seq: Number(info.lastInsertRowid) };
  }

  get(accountId: string, mode: Mode, id: string): WebhookEndpoint | undefined {
    const row = this.#byId.get(accountId, mode, id);
    return row && endpointFromRow(row);
  }

  page(accountId: string, mode: Mode, beforeSeq: number, limit: number): WebhookEndpoint[] {
    return this.#page.all(accountId, mode, beforeSeq, limit).map(endpointFromRow);
  }

  countActive(accountId: string, mode: Mode): number {
    return this.#count.get(accountId, mode)?.n ?? 0;
  }

  delete(id: string, at: number): void {
    this.#delete.run(at, id);
  }
}
