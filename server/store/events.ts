import type { Statement } from 'better-sqlite3';
import { newId } from '../domain/ids.js';
import type { Mode } from '../domain/modes.js';
import type { Db } from './db.js';

/** Contract §2 event types the reference emits. */
export const EVENT_TYPES = [
  'order.created',
  'order.cancelled',
  'order.in_production',
  'order.shipped',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

export interface StoredEvent {
  seq: number;
  id: string;
  mode: Mode;
  type: EventType;
  createdAt: number;
  /** The object's API representation at the time of the event, as JSON text. */
  objectJson: string;
}

/** An event as both storage engines keep it. */
export interface EventRow {
  seq: number;
  id: string;
  mode: string;
  type: string;
  created_at: number;
  object: string;
}

export function eventFromRow(row: EventRow): StoredEvent {
  return {
    seq: row.seq,
    id: row.id,
    mode: row.mode as Mode,
    type: row.type as EventType,
    createdAt: row.created_at,
    objectJson: row.object,
  };
}

export class EventStore {
  readonly #insert: Statement<[string, string, string, string, number, string]>;
  readonly #byId: Statement<[string, string, string], EventRow>;
  readonly #page: Statement<[string, string, number, number], EventRow>;
  readonly #pageOfType: Statement<[string, string, string, number, number], EventRow>;

  constructor(db: Db) {
    this.#insert = db.prepare(
      'INSERT INTO events (id, account_id, mode, type, created_at, object) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.#byId = db.prepare(
      'SELECT seq, id, mode, type, created_at, object FROM events WHERE account_id = ? AND mode = ? AND id = ?',
    );
    this.#page = db.prepare(
      `SELECT seq, id, mode, type, created_at, object FROM events
       WHERE account_id = ? AND mode = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
    );
    this.#pageOfType = db.prepare(
      `SELECT seq, id, mode, type, created_at, object FROM events
       WHERE account_id = ? AND mode = ? AND type = ? AND seq < ? ORDER BY seq DESC LIMIT ?`,
    );
  }

  /** Written in the same transaction as the change it reports, so no event is lost or invented. */
  record(accountId: string, mode: Mode, type: EventType, at: number, object: unknown): void {
    this.#insert.run(newId('evt'), accountId, mode, type, at, JSON.stringify(object));
  }

  get(accountId: string, mode: Mode, id: string): StoredEvent | undefined {
    const row = this.#byId.get(accountId, mode, id);
    return row && eventFromRow(row);
  }

  page(
    accountId: string,
    mode: Mode,
    type: string | undefined,
    beforeSeq: number,
    limit: number,
  ): StoredEvent[] {
    const rows =
      type === undefined
        ? this.#page.all(accountId, mode, beforeSeq, limit)
        : this.#pageOfType.all(accountId, mode, type, beforeSeq, limit);
    return rows.map(eventFromRow);
  }
}
