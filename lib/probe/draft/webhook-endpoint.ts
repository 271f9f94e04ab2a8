import { valueAt } from '../../evidence/json-pointer.js';
import { pathOf } from '../../target/dialect.js';
import { memberOf } from '../infer.js';
import { endpointBodyFields } from '../infer-body.js';
import { fitBody } from './fit-body.js';
import { orStart, putAt, type Steps, unique } from './shared.js';

/**
 * A webhook endpoint for the two event kinds: its body fitted to the 422s
 * (without the list of kinds when the target takes none), created with the
 * profile's method or the other usual one, then deleted.
 */
export async function webhookEndpoint(s: Steps): Promise<void> {
  const { d, session, token, draft } = s;
  const kinds = [d.eventKinds.orderCreated, d.eventKinds.orderCancelled];
  const url = 'https://draft-profile.example.com/hooks';
  for (const method of unique([
    d.operations.webhookEndpointCreate.method,
    'POST',
    'PUT',
    'PATCH',
  ] as const)) {
    let events = d.webhookEndpointBody.events;
    let listRefused: string | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const fitted = await fitBody(
        s,
        'dialect.webhookEndpointBody',
        endpointBodyFields({ url: d.webhookEndpointBody.url, events }),
        (fitting) => {
          const body: Record<string, unknown> = {};
          for (const f of fitting.fields) putAt(body, f.place, f.name === 'url' ? url : kinds);
          return session.send({ method, path: pathOf(d, 'webhookEndpoints'), json: body }, token);
        },
      );
      const res = fitted.res;
      if (res && (res.status === 404 || res.status === 405)) break;
      if ('todo' in fitted) {
        // The list of kinds refused wherever it goes (not its values): perhaps the target takes none.
        if (events !== null && !fitted.values?.length && /\bevents\b/.test(fitted.todo)) {
          events = null;
          listRefused = fitted.todo;
          continue;
        }
        draft.todos.push(fitted.todo);
        return;
      }
      if (fitted.res.status < 200 || fitted.res.status >= 300) {
        draft.todos.push(
          `dialect.webhookEndpointBody: ${fitted.res.request} answered ${fitted.res.status}`,
        );
        return;
      }
      const at = (name: string) => fitted.fitting.fields.find((f) => f.name === name)?.place;
      d.webhookEndpointBody = {
        url: at('url') ?? d.webhookEndpointBody.url,
        events: at('events') ?? null,
      };
      // Taken without a list after the list was refused wherever the probe put it: the target may
      // take none, or one where no name the probe knows says (a guess either way, so said).
      if (listRefused && d.webhookEndpointBody.events === null)
        draft.todos.push(
          `dialect.webhookEndpointBody.events: written as null (the target took the endpoint without a list of kinds) after the list was refused (${listRefused}); if the target takes a list elsewhere, write where`,
        );
      d.operations.webhookEndpointCreate = { method, status: fitted.res.status };
      s.got('webhookEndpointBody', 'operations.webhookEndpointCreate');
      await deleteMade(s, fitted.res.json);
      return;
    }
  }
  draft.todos.push(
    `dialect.operations.webhookEndpointCreate.method: ${pathOf(d, 'webhookEndpoints')} (the API document's path) answered 404 or 405 to POST, PUT and PATCH`,
  );
}

/**
 * The endpoint just made, found by the id its answer shows and deleted with
 * the profile's method or another usual one (sandbox etiquette).
 */
async function deleteMade(s: Steps, made: unknown): Promise<void> {
  const { d, session, token, draft } = s;
  const id = orStart(
    memberOf(
      made,
      /^(id|[a-z]+_id|uid)$/,
      (v) => typeof v === 'string',
      'dialect.answers.webhookEndpoint.id',
    ),
    made,
    d.answers.webhookEndpoint.id,
  );
  if ('todo' in id) {
    draft.todos.push(id.todo);
    return;
  }
  d.answers.webhookEndpoint.id = id.value;
  s.got('answers.webhookEndpoint.id');
  const endpointId = String(valueAt(made, id.value));
  for (const del of unique([
    d.operations.webhookEndpointDelete.method,
    'DELETE',
    'POST',
  ] as const)) {
    const gone = await session.send(
      { method: del, path: pathOf(d, 'webhookEndpoint', { id: endpointId }) },
      token,
    );
    if (gone.status === 404 || gone.status === 405) continue;
    if (gone.status >= 200 && gone.status < 300) {
      d.operations.webhookEndpointDelete = { method: del, status: gone.status };
      s.got('operations.webhookEndpointDelete', 'paths.webhookEndpoint');
    }
    return;
  }
  draft.todos.push(
    `dialect.paths.webhookEndpoint, operations.webhookEndpointDelete: the endpoint made was not deleted at ${pathOf(d, 'webhookEndpoint', { id: endpointId })} (DELETE, POST)`,
  );
}
