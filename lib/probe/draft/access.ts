import { randomUUID } from 'node:crypto';
import type { Key } from '../../client/types.js';
import { pathOf } from '../../target/dialect.js';
import { docsUrlOf, type Inferred, keyPrefixOf } from '../infer.js';
import { type Drafting, get, type Steps } from './shared.js';

/**
 * The way in: the docs URL a refusal shows, the key's prefix and the token.
 * With no credentials the account answers 401: a problem whose type holds
 * {docs_url}. Answers what it shows (the URL, or its TODO).
 */
export async function docsUrlAtTheDoor(s: Drafting): Promise<Inferred<string>> {
  const { d, session } = s;
  const door = await session.send({
    method: d.operations.account.method,
    path: pathOf(d, 'account'),
  });
  const docs = docsUrlOf(door.json);
  if ('value' in docs) {
    d.docsUrl = docs.value;
    s.got('docsUrl');
  }
  return docs;
}

/** The key's token (client credentials), and the key prefix it and the key show; undefined when refused. */
export async function tokenOf(s: Drafting, key: Key): Promise<string | undefined> {
  const { d, session, draft } = s;
  const granted = await session.token(key);
  const token = 'token' in granted ? granted.token : undefined;
  s.take('keyPrefix', keyPrefixOf(key.accessKeyId, token), (prefix) => {
    d.keyPrefix = prefix;
  });
  if (token) {
    draft.answered.push('token');
    s.got('operations.token.status');
    return token;
  }
  draft.todos.push(
    `everything behind a token: ${'refused' in granted ? `${granted.refused.request} answered ${granted.refused.status}` : 'no token'}`,
  );
  return undefined;
}

/** When the 401 showed no docs URL: another problem, with the token, an order that does not exist. */
export async function docsUrlOfAProblem(s: Steps): Promise<void> {
  const missing = await get(s, 'order', { id: `draft-${randomUUID()}` });
  s.take('docsUrl', docsUrlOf(missing.json), (url) => {
    s.d.docsUrl = url;
  });
}
