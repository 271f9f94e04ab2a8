import {
  answerHolds,
  type CheckContext,
  type Condition,
  type HttpResponse,
} from '../../lib/check/index.js';
import type { ModelSentence } from './sentences.js';

/** What a model step expects, beside whether the target agreed. */
export interface ModelExpectation {
  /** The model's answer in words: "409 not_cancellable". */
  expected: string;
  /** The sentence of the document the step judges. */
  sentence: ModelSentence;
  /**
   * The same judgement as data, for a reproduction to judge again. Kept only
   * where it gives the step's own verdict on this answer: a condition that
   * disagreed with the model would judge something the check did not.
   */
  must?: Condition;
}

/**
 * One step of a model-based sequence: when the target disagrees with the
 * model, record it and end this sequence (a CheckStopped, which the
 * property treats as this run failing), because every later step would be
 * judged against a model that no longer matches.
 */
export function expectModelStep(
  ctx: CheckContext,
  agrees: boolean,
  step: { toString(): string },
  res: HttpResponse,
  expectation: ModelExpectation,
  holds?: { pointer: string; equals: unknown }[],
): void {
  if (agrees) {
    ctx.judged();
    return;
  }
  const { expected, sentence, must } = expectation;
  const code = (res.json as { code?: unknown } | undefined)?.code;
  ctx.stop({
    code: 'STATE',
    pointer: '/status',
    expected,
    received: `HTTP ${res.status}${typeof code === 'string' ? ` ${code}` : ''}`,
    message: `${step.toString()}: the target answered HTTP ${res.status}${typeof code === 'string' ? ` ${code}` : ''}, the model expected ${expected}`,
    exchange: res.exchange,
    sentence: { section: sentence.section, quote: sentence.quote },
    ...(holds ? { holds } : {}),
    ...(must && !answerHolds(res, must) ? { must } : {}),
  });
}
