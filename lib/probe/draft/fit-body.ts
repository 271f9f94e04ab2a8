import type { OrderBodyShape } from '../../target/dialect.js';
import {
  type BodyField,
  errorsFormOf,
  type Fitting,
  pointersIn,
  refit,
  startFitting,
} from '../infer-body.js';
import type { Answer } from '../probe-session.js';
import type { Steps } from './shared.js';

/** Sends a body at `path`, fitting it to the 422s; answers the accepted answer, or why not. */
export async function fitBody(
  s: Steps,
  what: string,
  fields: BodyField[],
  send: (fitting: Fitting) => Promise<Answer>,
): Promise<{ res: Answer; fitting: Fitting } | { todo: string; res?: Answer; values?: string[] }> {
  const fitting = startFitting(fields);
  const errorsSeen = s.draft.inferred.includes('errors.member');
  let last: Answer | undefined;
  for (let round = 0; round < 24; round++) {
    const res = await send(fitting);
    last = res;
    if (res.status !== 422) return { res, fitting };
    const form = errorsFormOf(res.json, s.d.errors);
    if (form && !errorsSeen) {
      s.d.errors = form.value;
      s.got('errors.member');
      if (form.decided) s.got('errors.form');
    } else if (form?.decided && !s.draft.inferred.includes('errors.form')) {
      s.d.errors = form.value;
      s.got('errors.form');
    }
    const pointers = pointersIn(res.json, s.d.errors);
    if (pointers.length === 0)
      return {
        todo: `${what}: ${res.request} answered 422 with no errors[] pointer the probe could read: write where the target wants each field`,
        res,
      };
    const { bad, stuck, values } = refit(fitting, pointers);
    if (bad.length === 0)
      return {
        todo: `${what}: ${res.request} answered 422 with errors[] at ${pointers.join(', ')}, none about where a field is${values.length ? ` (${values.join(', ')}: values inside a list, such as event kinds the target names otherwise)` : ''}`,
        res,
        values,
      };
    if (stuck.length > 0)
      return {
        todo: `${what}: ${res.request} answered 422 with errors[] at ${pointers.join(', ')}, and the probe has no place left to try for ${stuck.join(', ')}: write where the target wants them`,
        res,
      };
  }
  return { todo: `${what}: no body the target took in 24 tries (last: ${last?.status})` };
}

/** The shape a fitting describes, over `base`. */
export function shapeOf(fitting: Fitting, base: OrderBodyShape): OrderBodyShape {
  const at = (name: string) => fitting.fields.find((f) => f.name === name)?.place;
  const address = { ...base.address };
  for (const f of Object.keys(address) as (keyof OrderBodyShape['address'])[])
    address[f] = at(`address.${f}`) ?? address[f];
  return {
    items: at('items') ?? base.items,
    sku: at('sku') ?? base.sku,
    quantity: at('quantity') ?? base.quantity,
    address,
  };
}
