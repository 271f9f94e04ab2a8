import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { burstFolders } from '../../lib/runner/check-groups.js';
import { activeRules } from '../../rules/index.js';

const SUITES = fileURLToPath(new URL('../../suites/', import.meta.url));

describe('the check files that burst', () => {
  it('are the folders of every rule that provokes 429s (spread over the lanes of a run against a target elsewhere)', () => {
    const folders = burstFolders();
    const provoking = activeRules.filter((rule) => rule.provokes429);
    expect(provoking.length).toBeGreaterThan(0);
    for (const rule of provoking) expect(folders).toContain(rule.area.toLowerCase());
    for (const folder of folders) {
      expect(readdirSync(`${SUITES}${folder}`).some((name) => name.endsWith('.check.ts'))).toBe(
        true,
      );
    }
    // The bursts of the rate-limit and race checks are why: pinned, so a catalogue change that drops them shows.
    expect([...folders].sort()).toEqual(['err', 'race', 'rate']);
  });
});
