import { type Condition, holds } from '../violations/condition.mjs';
import type { HttpResponse } from './context-api.js';

/** Whether an answer meets a condition of condition.mjs: the one evaluation checks and reproductions share. */
export function answerHolds(res: HttpResponse, must: Condition): boolean {
  return holds(must, { status: res.status, headers: res.headers, json: res.json, text: res.text });
}
