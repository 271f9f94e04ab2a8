import { valueAt } from '../../evidence/json-pointer.js';
import type { Dialect } from '../../target/dialect.js';
import { accountFieldsOf } from '../infer.js';
import { get, orStart, type Steps } from './shared.js';

/** The account: where each field is; the maximum order value is a money place. */
export async function readAccount(s: Steps): Promise<void> {
  const { d, draft } = s;
  const account = await get(s, 'account');
  if (s.answered('account', account) && account.status === 200) {
    s.got('operations.account.status');
    const fields = accountFieldsOf(account.json);
    for (const [field, found] of Object.entries(fields)) {
      const start = d.accountFields[field as keyof Dialect['accountFields']];
      s.take(`accountFields.${field}`, orStart(found, account.json, start), (pointer) => {
        d.accountFields[field as keyof Dialect['accountFields']] = pointer;
      });
    }
    const maxValue = valueAt(account.json, d.accountFields.maxOrderValue);
    if (maxValue !== undefined)
      s.money.push({
        place: 'maxOrderValue',
        value: maxValue,
        where: `GET /account at ${d.accountFields.maxOrderValue}`,
      });
  } else if (account.status !== 404) {
    draft.todos.push(
      `dialect.accountFields, dialect.money: ${account.request} answered ${account.status}`,
    );
  }
}
