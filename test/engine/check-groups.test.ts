import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { burstFolders, groupsInclude } from '../../lib/runner/check-groups.js';
import { activeRules } from '../../rules/index.js';

const SUITES = fileURLToPath(new URL('../../suites/', import.meta.url));

describe('the groups a run of the bundled check files runs', () => {
  it('runs each folder as its group, but the folders given alone file by file', () => {
    expect(
      groupsInclude(
        ['err/err.group.js', 'rate/rate.group.js', 'token/token.group.js'],
        new Set(['rate']),
      ),
    ).toEqual(['suites/err/err.group.js', 'suites/rate/*.check.js', 'suites/token/token.group.js']);
  });

  it('against a target elsewhere, runs alone the folders of every rule that provokes 429s, each a folder of check files', () => {
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
