import { describe, expect, test } from 'vitest';
import { EvidenceRecorder } from '../../lib/evidence/recorder.js';
import { Redactor } from '../../lib/evidence/redactor.js';
import { ReplayBook } from '../../lib/evidence/trace.js';

const raw = (url: string) => ({
  channel: 'api' as const,
  startedAt: new Date(0),
  durationMs: 1,
  method: 'GET',
  url,
  requestHeaders: {},
  status: 404,
});

// One evidence scope: a check's run, a property's run and work shared by a file's
// checks (CheckContext.sharedInFile) each record into their own scope; a check keeps a finished
// scope's exchanges under their own ids.
describe('evidence scopes', () => {
  test('a scope keeps its exchanges and notes out of the scope that opened it', async () => {
    const recorder = new EvidenceRecorder(new Redactor(), new ReplayBook());
    const outer = await recorder.scope(async () => {
      recorder.record(raw('/own'));
      recorder.current().notes.push('own note');
      const inner = await recorder.scope(async () => {
        recorder.record(raw('/shared'));
        recorder.current().notes.push('shared note');
        return 7;
      });
      expect(inner).toMatchObject({ value: 7, notes: ['shared note'] });
      expect(inner.evidence.map((ex) => ex.request.url)).toEqual(['/shared']);
      return inner;
    });
    expect(outer.notes).toEqual(['own note']);
    expect(outer.evidence.map((ex) => ex.request.url)).toEqual(['/own']);
  });

  test('a scope answers a failure as a value, with what was recorded before it', async () => {
    const recorder = new EvidenceRecorder(new Redactor(), new ReplayBook());
    const boom = new Error('boom');
    const scoped = await recorder.scope(async () => {
      recorder.record(raw('/before-failure'));
      throw boom;
    });
    expect(scoped).toMatchObject({ error: boom });
    expect(scoped.evidence).toHaveLength(1);
  });

  test('scopes in flight at once never mix their exchanges', async () => {
    const recorder = new EvidenceRecorder(new Redactor(), new ReplayBook());
    const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
    const [a, b] = await Promise.all(
      ['a', 'b'].map((name) =>
        recorder.scope(async () => {
          for (let i = 0; i < 3; i++) {
            recorder.record(raw(`/${name}/${i}`));
            await tick();
          }
        }),
      ),
    );
    expect(a!.evidence.map((ex) => ex.request.url)).toEqual(['/a/0', '/a/1', '/a/2']);
    expect(b!.evidence.map((ex) => ex.request.url)).toEqual(['/b/0', '/b/1', '/b/2']);
  });

  test('keep moves a finished scope’s exchanges in under their own ids: nothing is renumbered', async () => {
    const recorder = new EvidenceRecorder(new Redactor(), new ReplayBook());
    const shared = await recorder.scope(async () => [
      recorder.record(raw('/a')),
      recorder.record(raw('/b')),
    ]);
    const check = await recorder.scope(async () => {
      recorder.record(raw('/own'));
      recorder.keep(shared);
    });
    const ids = 'value' in shared ? shared.value : [];
    expect(check.evidence.map((ex) => ex.request.url)).toEqual(['/own', '/a', '/b']);
    expect(check.evidence.slice(1).map((ex) => ex.id)).toEqual(ids);
  });
});
