import { answered, jsonOf, unchanged } from '../../sandbox/facts.js';
import { broken, honoured, type Judge, mediaTypeOf, named } from '../judge.js';

/** Request bodies (API document sections 4 and 7): JSON, and never the same refused body again. */

export const jsonBodies: Judge = {
  ruleId: 'CLIENT-11',
  occasions: (traffic) =>
    traffic.all.filter((ex) => ex.kind === 'call' && (ex.requestBody ?? '') !== ''),
  judge(ex) {
    const type = mediaTypeOf(ex);
    if (type !== 'application/json')
      return broken(
        `${named(ex)} sent a body with Content-Type ${type === undefined ? '(none)' : type}, not application/json`,
        ex.id,
      );
    if (jsonOf(ex.requestBody) === undefined)
      return broken(`${named(ex)} said application/json but its body is not JSON`, ex.id);
    return honoured(`${named(ex)} sent a JSON body as application/json`, ex.id);
  },
};

export const fixBeforeResending: Judge = {
  ruleId: 'CLIENT-23',
  reacts: true,
  occasions: (traffic) =>
    traffic.all.filter((ex) => ex.kind !== 'other' && answered(ex, 422, 'validation_failed')),
  judge(ex, traffic) {
    const again = traffic.after(ex).find((e) => unchanged(e, ex));
    if (again)
      return broken(
        `${named(ex)} was refused with 422 validation_failed and ${named(again)} sent it again unchanged`,
        ex.id,
        again.id,
      );
    return honoured(
      `${named(ex)} was refused with 422 validation_failed and never sent again unchanged`,
      ex.id,
    );
  },
};
