import { type CheckContext, check, checksUseOwnAccounts, type Key } from '../../lib/check/index.js';

checksUseOwnAccounts();

/** The keys to look at: the one the run gives, and with the control API a live key as well. */
async function keysToInspect(ctx: CheckContext): Promise<Key[]> {
  const keys = [await ctx.key()];
  if (ctx.has('keys')) keys.push(await ctx.key({ mode: 'live' }));
  return keys;
}

/** A part of a key, described without showing it: the part up to the kind marker and the length after. */
function describePart(value: string, marker: '_ak_' | '_sk_'): string {
  const at = value.indexOf(marker);
  if (at < 0) return `a value without ${marker} (${value.length} characters)`;
  const rest = value.slice(at + marker.length);
  const alphabet = /^[A-Za-z0-9]*$/.test(rest) ? 'base62' : 'not only base62';
  return `${value.slice(0, at)}${marker}<${rest.length} characters, ${alphabet}>`;
}

// Section 2, API key: Access Key ID `<prefix>_<mode>_ak_<chars>`, Secret Key `<prefix>_<mode>_sk_<chars>`,
// `<prefix>` one constant of the service, `<mode>` the key's mode.
check('KEY-07', async (ctx) => {
  let prefix: string | undefined;
  for (const key of await keysToInspect(ctx)) {
    const id = /^([^\s_]+)_(test|live)_ak_(\S+)$/.exec(key.accessKeyId);
    const secret = /^([^\s_]+)_(test|live)_sk_(\S+)$/.exec(key.secretKey);
    ctx.expectTrue(id !== null && id[2] === key.mode, {
      code: 'VALUE',
      pointer: '/key/access_key_id',
      expected: `<prefix>_${key.mode}_ak_<chars>`,
      received: key.accessKeyId,
      message: `the Access Key ID of a ${key.mode} key must be <prefix>_${key.mode}_ak_<chars>`,
    });
    ctx.expectTrue(secret !== null && secret[2] === key.mode, {
      code: 'VALUE',
      pointer: '/key/secret_key',
      expected: `<prefix>_${key.mode}_sk_<chars>`,
      received: describePart(key.secretKey, '_sk_'),
      message: `the Secret Key of a ${key.mode} key must be <prefix>_${key.mode}_sk_<chars>`,
    });
    for (const found of [id?.[1], secret?.[1]]) {
      if (found === undefined) continue;
      prefix ??= found;
      ctx.expectEqual('/key', prefix, found, 'every key part has the one prefix of the service');
    }
  }
});

// Contract section 2: prefix `odp` (or the profile's) and 24 or more base62 characters.
check('KEY-08', async (ctx) => {
  const p = ctx.dialect.keyPrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const key of await keysToInspect(ctx)) {
    const idShape = new RegExp(`^${p}_${key.mode}_ak_[A-Za-z0-9]{24,}$`);
    const secretShape = new RegExp(`^${p}_${key.mode}_sk_[A-Za-z0-9]{24,}$`);
    ctx.expectTrue(idShape.test(key.accessKeyId), {
      code: 'VALUE',
      pointer: '/key/access_key_id',
      expected: `${ctx.dialect.keyPrefix}_${key.mode}_ak_ and 24+ base62 characters`,
      received: key.accessKeyId,
      message: 'the Access Key ID does not have the reference shape',
    });
    ctx.expectTrue(secretShape.test(key.secretKey), {
      code: 'VALUE',
      pointer: '/key/secret_key',
      expected: `${ctx.dialect.keyPrefix}_${key.mode}_sk_ and 24+ base62 characters`,
      received: describePart(key.secretKey, '_sk_'),
      message: 'the Secret Key does not have the reference shape',
    });
  }
});
