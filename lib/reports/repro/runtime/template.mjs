// A reproduction's templates: `{{vN}}` is the value of variable vN (learned from an answer, made
// up, or read from the environment), `{{!}}` a `{{` of the text itself. Text the target sent is
// never filled: a value holding `{{v1}}` stays that text (the run wrote its own `{{` as `{{!}}`).

export class Unfilled extends Error {
  constructor(name) {
    super(`no value for ${name}: the answer it comes from did not carry it`);
    this.variable = name;
  }
}

/** `template` filled; `encode` writes each value for where it goes (a URL, a JSON string, a form). */
export function fill(template, values, encode = (value) => value) {
  return template.replace(/\{\{(v\d+|!)\}\}/g, (_, name) => {
    if (name === '!') return '{{';
    if (!values.has(name)) throw new Unfilled(name);
    return encode(values.get(name));
  });
}

/** Every string inside a value (a condition, an expected value) filled. */
export function fillData(value, values) {
  if (typeof value === 'string') return fill(value, values);
  if (Array.isArray(value)) return value.map((item) => fillData(item, values));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillData(v, values)]));
  }
  return value;
}

/** A value as it is written where it goes: a URL, a JSON string's inside, a form field. */
export const ENCODE = {
  url: (value) => encodeURIComponent(String(value)),
  json: (value) => JSON.stringify(String(value)).slice(1, -1),
  form: (value) => encodeURIComponent(String(value)).replace(/%20/g, '+'),
};

/** How a value is written into a request body of this media type. */
export function bodyEncoder(contentType) {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) return ENCODE.json;
  if (type === 'application/x-www-form-urlencoded') return ENCODE.form;
  return (value) => value;
}

/** The path and query of a step with each value percent-encoded (an id like `acct:1`). */
export function fillUrl(template, values) {
  return fill(template, values, ENCODE.url);
}
