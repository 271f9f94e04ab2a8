import { expect, test } from 'vitest';
import { MODEL_SENTENCES } from '../../suites/model/sentences.js';
import { normalise, sourceSections } from './source-text.js';

// A model step names the sentence it judges (a reproduction of its failure quotes it): each is in
// the cited section of the API document, verbatim but for Markdown marks, as rules' quotes are.
test('each model step quotes a sentence of the API document, verbatim', () => {
  const api = sourceSections().api;
  const misquoted = Object.entries(MODEL_SENTENCES).filter(
    ([, sentence]) => !api.get(sentence.section)?.includes(normalise(sentence.quote)),
  );
  expect(misquoted).toEqual([]);
});
