// A rule's condition as data: what an answer (or the answers of requests sent together) must show
// for the rule to hold. A check judges with it and records it with its violation (`must`), so a
// standalone reproduction judges the same condition again on the answer it gets, not the run's
// old value: a half fix (another invalid Retry-After, another wrong `type`) still fails.
// Plain JavaScript: the reproductions carry this file as it is, with the one JSON-pointer reader
// it imports (their runtime joins both into one module).

import { valueAt } from '../evidence/json-pointer.mjs';

/**
 * The value at `place` of an answer `{status, headers, json, text}`: `/status`,
 * `/headers/<name>` (lower case), `/body` (the parsed JSON, else the text), `/body/<JSON pointer>`.
 * Own members only: a server's `__proto__` or `constructor` is a name, not a way in.
 */
export function answerAt(answer, place) {
  if (!answer) return undefined;
  if (place === '/status') return answer.status;
  if (place.startsWith('/headers/')) {
    const name = place.slice('/headers/'.length).toLowerCase();
    const headers = answer.headers;
    return headers && Object.hasOwn(headers, name) ? headers[name] : undefined;
  }
  if (place === '/body') return answer.json !== undefined ? answer.json : answer.text || undefined;
  if (!place.startsWith('/body/')) return undefined;
  return valueAt(answer.json, place.slice('/body'.length));
}

/** Structural equality of JSON values (key order aside). */
export function sameValue(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]));
}

/** Whether `subject` (one answer; a list of answers for `each`, `count` and `distinct`) meets the condition. */
export function holds(condition, subject) {
  if ('all' in condition) return condition.all.every((c) => holds(c, subject));
  if ('any' in condition) return condition.any.some((c) => holds(c, subject));
  if ('not' in condition) return !holds(condition.not, subject);
  if ('each' in condition) return listOf(subject).every((answer) => holds(condition.each, answer));
  if ('count' in condition) {
    return within(
      listOf(subject).filter((answer) => holds(condition.count, answer)).length,
      condition,
    );
  }
  if ('distinct' in condition) {
    const values = [];
    for (const answer of listOf(subject)) {
      if (condition.among && !holds(condition.among, answer)) continue;
      const value = answerAt(answer, condition.distinct);
      if (value !== undefined && !values.some((seen) => sameValue(seen, value))) values.push(value);
    }
    return within(values.length, condition);
  }
  return passes(condition.is, answerAt(subject, condition.at), subject);
}

function listOf(subject) {
  return Array.isArray(subject) ? subject : [subject];
}

function within(count, { min, max }) {
  return (min === undefined || count >= min) && (max === undefined || count <= max);
}

/** One test on one value; `answer` for the tests that read another place of the same answer. */
export function passes(test, value, answer) {
  if ('equals' in test) return sameValue(value, test.equals);
  if ('oneOf' in test) return test.oneOf.some((one) => sameValue(value, one));
  if ('between' in test) {
    return typeof value === 'number' && value >= test.between[0] && value <= test.between[1];
  }
  if ('matches' in test) {
    return typeof value === 'string' && new RegExp(test.matches, test.flags ?? '').test(value);
  }
  if ('seconds' in test) {
    // Delta-seconds (RFC 9110 §10.2.3): digits only, around them at most white space.
    if (typeof value !== 'string' || !/^\s*\d+\s*$/.test(value)) return false;
    return within(Number(value.trim()), test.seconds);
  }
  if ('present' in test) return value !== undefined;
  if ('absent' in test) return value === undefined;
  if ('nonEmpty' in test) return typeof value === 'string' && value.length > 0;
  if ('type' in test)
    return typeOf(value) === test.type || (test.type === 'number' && typeOf(value) === 'integer');
  if ('hasItem' in test) {
    const { at, is } = test.hasItem;
    return Array.isArray(value) && value.some((item) => passes(is, valueAt(item, at), answer));
  }
  if ('sameAs' in test) return sameValue(value, answerAt(answer, test.sameAs));
  if ('mediaType' in test) {
    return typeof value === 'string' && value.split(';')[0].trim().toLowerCase() === test.mediaType;
  }
  if ('directive' in test) {
    return (
      typeof value === 'string' &&
      value.split(',').some((part) => part.split('=')[0].trim().toLowerCase() === test.directive)
    );
  }
  if ('problemType' in test) {
    const code = answerAt(answer, '/body/code');
    if (typeof value !== 'string' || typeof code !== 'string' || !absoluteUri(value)) return false;
    const anchor = `/errors#error-${code.replace(/_/g, '-')}`;
    const docsUrl = test.problemType.docsUrl;
    return docsUrl === undefined ? value.endsWith(anchor) : value === docsUrl + anchor;
  }
  return false;
}

function typeOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

function absoluteUri(value) {
  try {
    return Boolean(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** The places of answers a condition reads, in order: what a reproduction shows of what came. */
export function pointersOf(condition) {
  if ('all' in condition) return [...new Set(condition.all.flatMap(pointersOf))];
  if ('any' in condition) return [...new Set(condition.any.flatMap(pointersOf))];
  if ('not' in condition) return pointersOf(condition.not);
  if ('each' in condition) return pointersOf(condition.each);
  if ('count' in condition) return pointersOf(condition.count);
  if ('distinct' in condition) return [condition.distinct];
  return [condition.at];
}

/** The condition in words, for people: "header retry-after is a whole number of seconds, at least 1". */
export function describeCondition(condition) {
  if ('all' in condition) return condition.all.map(describeCondition).join(' and ');
  if ('any' in condition) return `either ${condition.any.map(describeCondition).join(', or ')}`;
  if ('not' in condition) return `not (${describeCondition(condition.not)})`;
  if ('each' in condition) return `every answer: ${describeCondition(condition.each)}`;
  if ('count' in condition) {
    return `${range(condition)} of the answers: ${describeCondition(condition.count)}`;
  }
  if ('distinct' in condition) {
    const among = condition.among
      ? ` among the answers where ${describeCondition(condition.among)}`
      : '';
    return `${range(condition)} distinct ${place(condition.distinct)}${among}`;
  }
  return `${place(condition.at)} ${describeTest(condition.is)}`;
}

function range({ min, max }) {
  if (min !== undefined && min === max) return `exactly ${min}`;
  if (min !== undefined && max !== undefined) return `${min} to ${max}`;
  if (max !== undefined) return `at most ${max}`;
  return `at least ${min ?? 0}`;
}

/** `/headers/retry-after` → "header retry-after"; `/body/type` → "type"; `/status` → "the status". */
export function place(pointer) {
  if (pointer === '/status') return 'the status';
  if (pointer.startsWith('/headers/')) return `header ${pointer.slice('/headers/'.length)}`;
  if (pointer === '/body') return 'the body';
  return pointer.slice('/body/'.length).replace(/\//g, '.') || 'the body';
}

export function describeTest(test) {
  if ('equals' in test) return `is ${JSON.stringify(test.equals)}`;
  if ('oneOf' in test) {
    const values = test.oneOf.map((v) => JSON.stringify(v));
    return values.length === 1 ? `is ${values[0]}` : `is one of ${values.join(', ')}`;
  }
  if ('between' in test) {
    const [low, high] = test.between;
    return low % 100 === 0 && high === low + 99 ? `is ${low / 100}xx` : `is ${low} to ${high}`;
  }
  if ('matches' in test) return `matches /${test.matches}/${test.flags ?? ''}`;
  if ('seconds' in test) {
    const { min, max } = test.seconds;
    const bounds = [
      ...(min !== undefined ? [`at least ${min}`] : []),
      ...(max !== undefined ? [`at most ${max}`] : []),
    ];
    return `is a whole number of seconds${bounds.length ? `, ${bounds.join(' and ')}` : ''}`;
  }
  if ('present' in test) return 'is present';
  if ('absent' in test) return 'is absent';
  if ('nonEmpty' in test) return 'is a non-empty string';
  if ('type' in test) return `is ${/^[aeiou]/.test(test.type) ? 'an' : 'a'} ${test.type}`;
  if ('hasItem' in test) {
    const { at, is } = test.hasItem;
    const of = at === '' ? ' that' : ` whose ${at.slice(1).replace(/\//g, '.')}`;
    return `has an item${of} ${describeTest(is)}`;
  }
  if ('sameAs' in test) return `equals ${place(test.sameAs)}`;
  if ('mediaType' in test) return `is ${test.mediaType}`;
  if ('directive' in test) return `has the directive ${test.directive}`;
  if ('problemType' in test) {
    const base = test.problemType.docsUrl ?? '{docs_url}';
    return `is ${base}/errors#error-<code, underscores as hyphens>`;
  }
  return 'passes an unknown test';
}
