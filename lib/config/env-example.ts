import { ENV_ONLY, OPTION_GROUPS, OPTIONS, type OptionGroup } from './options.js';

const HEADER = `# Generated from the option table (lib/config/options.ts) by
# \`npm run docs:env-example\`: every setting the suite reads is here.
# Copy to .env (git-ignored) and fill in what applies. Every variable is
# optional; a command-line flag wins over the environment, which wins over
# this file. Blank values count as unset. With nothing set,
# \`npm run conformance\` tests the bundled reference server.`;

const PROCESS_ONLY = `# --- Read from the process environment only, never from this file ---
# (commented out on purpose: set them in the shell or CI job that runs the command)

# Print the stack of an internal error of the suite (exit 2) as well as its message.
# DEBUG=conformance

# \`npm run reference\` also reads CONTROL_TOKEN (above) from its environment: with it,
# the reference server mounts its control API at /__control.

# \`npm test\`: the browser the report.html tests open the report in. Unset: a system
# Chromium or Chrome is looked for, and without one those tests are skipped. Set (as
# .ci/run does): the tests fail if it is missing, so CI never skips them.
# CHROMIUM_PATH=/usr/bin/chromium

# \`npm run bench:reference\`: seconds per round, rounds, and concurrent connections.
# BENCH_DURATION=5
# BENCH_ROUNDS=5
# BENCH_CONNECTIONS=32`;

/** Wraps a comment at 78 columns. */
function comment(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/)) {
    if (line.length + word.length + 1 > 78 && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** `.env.example`, from the option table: one entry per setting, by `--help`'s groups. */
export function envExampleText(): string {
  const out: string[] = [HEADER, ''];
  for (const [group, { title }] of Object.entries(OPTION_GROUPS)) {
    out.push(`# === ${title} ===`, '');
    for (const option of OPTIONS) {
      if (option.group !== (group as OptionGroup) || !option.env) continue;
      const value = 'value' in option ? '' : ' (true or false)';
      out.push(...comment(`${option.description}${value}. Same as --${option.flag}.`));
      out.push(`${option.env}=`, '');
    }
    if (group === 'target') {
      for (const variable of ENV_ONLY) {
        out.push(
          ...comment(
            `${variable.description}. No flag: a secret has no business on a command line.`,
          ),
        );
        out.push(`${variable.env}=`, '');
      }
    }
  }
  out.push(PROCESS_ONLY, '');
  return out.join('\n');
}
