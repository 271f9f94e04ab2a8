import { check } from '../../lib/check/index.js';
import { provokeErrors } from './provoke-errors.js';

/** Signs of internals in a text for people: stack frames, source paths, driver and runtime messages. */
const INTERNALS: { what: string; pattern: RegExp }[] = [
  {
    what: 'a stack frame',
    pattern: /\bat (?:async )?[\w$.<>]+ \(|\bat (?:file:\/\/)?\/[^\s]+:\d+:\d+/,
  },
  { what: 'a source file position', pattern: /\.(?:[cm]?[jt]s|py|rb|go|java|php)\b:\d+/ },
  {
    what: 'a server path',
    pattern: /(?:^|[\s"'(])\/(?:home|usr|var|srv|opt|app|root|tmp|work)\/\S+/,
  },
  { what: 'node_modules', pattern: /node_modules/ },
  { what: 'a Python traceback', pattern: /Traceback \(most recent call last\)/ },
  {
    what: 'a database driver message',
    pattern: /SQLITE_|sqlite3?\b|SQLSTATE|ECONNREFUSED|ER_[A-Z_]{4,}/i,
  },
  {
    what: 'a JavaScript runtime error',
    pattern: /\b(?:TypeError|ReferenceError|RangeError|SyntaxError): /,
  },
];

// Section 7 (title and detail are "for people"), RFC 9457 §5: a problem does not expose
// implementation internals. Every title, detail and errors[].detail of every provoked error.
check('ERR-09', async (ctx) => {
  for (const { what, res } of await provokeErrors(ctx)) {
    const body = (res.json ?? {}) as Record<string, unknown>;
    const texts: [string, unknown][] = [
      ['/body/title', body.title],
      ['/body/detail', body.detail],
    ];
    if (Array.isArray(body.errors)) {
      body.errors.forEach((entry, i) => {
        texts.push([`/body/errors/${i}/detail`, (entry as { detail?: unknown } | null)?.detail]);
      });
    }
    if (res.json === undefined) texts.push(['/body', res.text]);
    for (const [pointer, text] of texts) {
      if (typeof text !== 'string') continue;
      const found = INTERNALS.find(({ pattern }) => pattern.test(text));
      ctx.expectTrue(found === undefined, {
        code: 'LEAK',
        pointer,
        expected: 'words for people, without internals',
        received: text.slice(0, 300),
        message: `${what}: the text shows ${found?.what ?? 'internals'}`,
        exchange: res.exchange,
      });
    }
  }
});
