import { dirname, relative } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ProfileSchema } from '../../config/profile-schema.js';
import { REFERENCE_DIALECT } from '../../target/dialect.js';
import type { Draft } from './draft.js';

export interface DraftFileInput {
  draft: Draft;
  /** Where the file goes (absolute): its `$schema` is relative to it. */
  file: string;
  /** The suite's `config/profile.schema.json` (absolute). */
  schemaFile: string;
  /** The target in words, for the description. */
  targetWords: string;
  /** The description's first sentence, when the draft was not made by probing (`--draft-profile-from`). */
  headline?: string;
  /** Written as the profile's default target and control URL when the user gave them. */
  target?: string;
  controlUrl?: string;
  now: Date;
}

/**
 * Sections of the dialect a version-2 profile may hold, beyond those every
 * version of the format has. Each goes into the file only if this suite's
 * profile schema takes it; one it refuses, whose value differs from the
 * reference, becomes a TODO quoting the value.
 */
const OPTIONAL_SECTIONS = [
  'list',
  'money',
  'answers',
  'orderStatuses',
  'operations',
  'quoteBody',
  'webhookEndpointBody',
  'eventKinds',
  'errors',
] as const;

/**
 * What the probe never infers: written only where the starting profile
 * (`--profile`) moved it from the reference, so a draft from a working
 * profile keeps its operations, bodies, event kinds and errors[] form, and a
 * draft from nothing stays short.
 */
const KEPT_FROM_START = new Set<string>([
  'operations',
  'quoteBody',
  'webhookEndpointBody',
  'eventKinds',
  'errors',
]);

/**
 * The draft as a version-2 profile: every inferred value and every path, the
 * TODOs in `description`. Answers the profile (valid under ProfileSchema)
 * and the final TODO list.
 */
export function draftProfileFile(input: DraftFileInput): {
  profile: Record<string, unknown>;
  todos: string[];
} {
  const { draft } = input;
  const d = draft.dialect;
  const todos = [...draft.todos];
  const dialect: Record<string, unknown> = {
    keyPrefix: d.keyPrefix,
    paths: d.paths,
    accountFields: d.accountFields,
    orderBody: d.orderBody,
    totals: d.totals,
  };
  const base = {
    $schema: relative(dirname(input.file), input.schemaFile).replaceAll('\\', '/'),
    version: 2,
    description: '',
    ...(input.target ? { target: input.target } : {}),
    ...(input.controlUrl ? { controlUrl: input.controlUrl } : {}),
    ...(d.docsUrl ? { docsUrl: d.docsUrl } : {}),
    dialect,
  };
  const candidates: Record<(typeof OPTIONAL_SECTIONS)[number], unknown> = {
    list: d.list,
    money: d.money,
    // The order's id and status always (the probe infers them), the rest where the start moved it.
    answers: {
      ...changedFrom(d.answers, REFERENCE_DIALECT.answers),
      order: {
        ...changedFrom(d.answers.order, REFERENCE_DIALECT.answers.order),
        id: d.answers.order.id,
        status: d.answers.order.status,
      },
    },
    orderStatuses: d.orderStatuses,
    operations: changedFrom(d.operations, REFERENCE_DIALECT.operations),
    // Left out, a quote body is the order body without external_id (docs/profiles.md).
    quoteBody: isDeepStrictEqual(d.quoteBody, d.orderBody) ? {} : d.quoteBody,
    webhookEndpointBody: d.webhookEndpointBody,
    eventKinds: d.eventKinds,
    errors: d.errors,
  };
  for (const section of OPTIONAL_SECTIONS) {
    const value = candidates[section];
    if (
      KEPT_FROM_START.has(section) &&
      (isDeepStrictEqual(value, {}) || isDeepStrictEqual(value, REFERENCE_DIALECT[section]))
    )
      continue;
    const tried = { ...base, dialect: { ...dialect, [section]: value } };
    if (ProfileSchema.safeParse(tried).success) dialect[section] = value;
    else if (!isDeepStrictEqual(pick(value, REFERENCE_DIALECT[section]), value))
      todos.push(
        `dialect.${section}: the target answers ${JSON.stringify(value)}, which this suite version's profile format cannot hold yet (it keeps the reference's)`,
      );
  }
  base.description = describe(input, todos);
  const checked = ProfileSchema.safeParse(base);
  if (!checked.success) {
    // Never write what --profile would refuse: an inferred value the schema refuses falls back.
    throw new Error(`the draft profile does not validate: ${checked.error.issues[0]?.message}`);
  }
  return { profile: base, todos };
}

/** The members of an object of the dialect that differ from the reference's, whole. */
function changedFrom<T extends object>(value: T, reference: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(
      ([k, v]) => !isDeepStrictEqual(v, (reference as Record<string, unknown>)[k]),
    ),
  ) as Partial<T>;
}

/** The reference's value cut to the members the candidate has (answers: only order id and status). */
function pick(candidate: unknown, reference: unknown): unknown {
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof reference !== 'object' ||
    reference === null
  )
    return reference;
  return Object.fromEntries(
    Object.keys(candidate).map((k) => [
      k,
      pick((candidate as Record<string, unknown>)[k], (reference as Record<string, unknown>)[k]),
    ]),
  );
}

function describe(input: DraftFileInput, todos: readonly string[]): string {
  const { draft } = input;
  const head =
    input.headline ??
    `Draft written by --draft-profile from ${input.targetWords} on ${input.now.toISOString()}, in ${draft.requests} requests. Inferred from its answers: ${
      draft.inferred.length ? draft.inferred.join(', ') : 'nothing'
    }. Paths that answered: ${draft.answered.join(', ') || 'none'}.`;
  if (todos.length === 0)
    return `${head} Nothing left to do that the probe could see; review it before you certify with it.`;
  return `${head} TODO, until done each keeps the value written here (the reference dialect's where nothing was inferred): ${todos
    .map((todo, i) => `(${i + 1}) ${todo}`)
    .join(' ')}`;
}
