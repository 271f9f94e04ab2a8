import { z } from 'zod';
import type { Dialect } from '../../lib/check/index.js';
import { objectAt } from './at-pointers.js';
import { TimestampSchema } from './timestamp.js';

/**
 * Contract section 2: an event is `{id, type, created_at, livemode, data:
 * {object}}`; the profile moves the id and type (`dialect.answers.event`).
 */
export function eventSchema(dialect: Pick<Dialect, 'answers'>): z.ZodType {
  const at = dialect.answers.event;
  return objectAt([
    [at.id, z.string().min(1)],
    [at.type, z.string().min(1)],
    ['/created_at', TimestampSchema],
    ['/livemode', z.boolean()],
    ['/data/object', z.record(z.string(), z.unknown())],
  ]);
}
