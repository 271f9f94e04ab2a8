import { describe, expect, test } from 'vitest';
import { CheckRun } from '../../lib/check/check-run.js';
import { EvidenceRecorder } from '../../lib/evidence/recorder.js';
import { Redactor } from '../../lib/evidence/redactor.js';
import { ruleById } from '../../rules/index.js';

const raw = (url: string) => ({
  channel: 'api' as const,
  startedAt: new Date(0),
  durationMs: 1,
  method: 'GET',
  url,
  requestHeaders: {},
  status: 404,
});

// Work shared by several checks of a file (CheckContext.sharedInFile) is recorded apart once,
// then each check adopts copies of its exchanges and notes into its own evidence.
describe('evidence shared between the checks of a file', () => {
  test('recordApart keeps the exchanges and notes of the work out of the check that ran it', async () => {
    const run = new CheckRun(ruleById('ERR-01'), new Redactor());
    run.recorder.record(raw('/own'));
    run.notes.push('own note');
    const recorded = await run.recordApart(async () => {
      run.recorder.record(raw('/shared'));
      run.notes.push('shared note');
      return 7;
    });
    expect(recorded).toMatchObject({ value: 7, notes: ['shared note'] });
    expect(recorded.evidence.map((ex) => ex.request.url)).toEqual(['/shared']);
    expect(run.notes).toEqual(['own note']);
    expect(run.recorder.take().evidence.map((ex) => ex.request.url)).toEqual(['/own']);
  });

  test('recordApart answers a failure as a value, with what was recorded before it', async () => {
    const run = new CheckRun(ruleById('ERR-01'), new Redactor());
    const boom = new Error('boom');
    const recorded = await run.recordApart(async () => {
      run.recorder.record(raw('/before-failure'));
      throw boom;
    });
    expect(recorded).toMatchObject({ error: boom });
    expect(recorded.evidence).toHaveLength(1);
  });

  test('adopt copies exchanges under fresh ids and maps the old ids to them', () => {
    const source = new EvidenceRecorder(new Redactor());
    const first = source.record(raw('/a'));
    const second = source.record(raw('/b'));
    const target = new EvidenceRecorder(new Redactor());
    target.record(raw('/own'));
    const ids = target.adopt(source.take().evidence);
    const evidence = target.take().evidence;
    expect(evidence.map((ex) => [ex.id, ex.request.url])).toEqual([
      [1, '/own'],
      [2, '/a'],
      [3, '/b'],
    ]);
    expect([ids.get(first), ids.get(second)]).toEqual([2, 3]);
  });
});
