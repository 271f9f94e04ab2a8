import type { CheckContext, Condition, HttpResponse } from '../../lib/check/index.js';
import { problemCode } from './problem-text.js';

/**
 * How many times a race check races. One race whose requests a busy machine
 * happened to spread apart could miss a race the target does lose; three
 * rounds of requests held at their last byte (CheckContext.race) make that
 * coincidence vanishingly rare, at a cost that stays within the target's
 * rate limits (a round of five racing orders is five writes).
 */
export const RACE_ROUNDS = 3;

/** Racers of a race with one winner: five fit the write limit of a partner key with room to spare. */
export const RACERS = 5;

/**
 * Runs `round` for rounds 1 to `rounds`, and stops after the first round
 * that found a violation (answers false): one failing round proves the rule
 * broken, and its evidence is the clearest.
 */
export async function inRounds(
  rounds: number,
  round: (index: number) => Promise<boolean>,
): Promise<void> {
  for (let index = 1; index <= rounds; index++) {
    if (!(await round(index))) return;
  }
}

/** The answers of a race in a line for a note: `201, 409 duplicate_external_id, …`. */
export function answersLine(answers: readonly HttpResponse[]): string {
  return answers
    .map((res) => {
      const code = problemCode(res);
      return `${res.status}${code ? ` ${code}` : ''}`;
    })
    .join(', ');
}

/** `accepted` as data (lib/violations/condition.mjs): what a reproduction counts among a race's answers. */
export const ACCEPTED: Condition = { at: '/status', is: { between: [200, 299] } };

/** Whether a racer was accepted (any 2xx: the exact success status is another rule's). */
export function accepted(res: HttpResponse): boolean {
  return res.status >= 200 && res.status < 300;
}

/**
 * Judges the racers that were refused: each must be the documented refusal
 * (`status` and `code`). Answers whether all were.
 */
export function expectRefusedAs(
  ctx: CheckContext,
  answers: readonly HttpResponse[],
  expected: { status: number; code: string },
): boolean {
  let all = true;
  for (const res of answers) {
    if (accepted(res)) continue;
    if (!ctx.expectProblem(res, expected, ACCEPTED)) all = false;
  }
  return all;
}

/**
 * A race for the last `room` places under a limit: at most `room` racers
 * accepted (more is the limit broken), every other refused as documented
 * (`refusal`). Fewer than `room` accepted is only noted: refusing more than
 * needed is the rule of the limit itself, judged one request at a time.
 * Answers whether it held.
 */
export function expectWithinRoom(
  ctx: CheckContext,
  answers: readonly HttpResponse[],
  room: number,
  refusal: { status: number; code: string },
  what: string,
): boolean {
  const taken = answers.filter(accepted);
  const beyond = taken[room];
  const within = ctx.expectTrue(beyond === undefined, {
    code: 'STATE',
    pointer: '/status',
    expected: `at most ${room} of ${answers.length} racing ${what} accepted`,
    received: `${taken.length} accepted: ${answersLine(answers)}`,
    message: `${answers.length} ${what} racing for ${room} free places: ${taken.length} were accepted`,
    ...(beyond ? { exchange: beyond.exchange } : {}),
    // As data over the racers' answers: a reproduction races them again and counts the accepted.
    exchanges: answers.map((res) => res.exchange),
    must: { count: ACCEPTED, max: room },
  });
  const refused = expectRefusedAs(ctx, answers, refusal);
  if (taken.length < room) {
    ctx.note(`${taken.length} of ${room} free places taken by ${answers.length} racing ${what}`);
  }
  return within && refused;
}
