import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Headless, offline, no sandbox (containers run tests as root). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where system packages put Chromium or Chrome (Debian, Ubuntu, Fedora, macOS). */
const SYSTEM_BROWSERS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
];

/**
 * The browser the report tests open report.html in: `CHROMIUM_PATH` when set
 * (CI sets it, so a missing browser fails there instead of skipping), else a
 * system Chromium or Chrome, else one `npx playwright-core install chromium`
 * downloaded.
 */
function findChromium(): string | undefined {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) return chosen;
  const system = SYSTEM_BROWSERS.find((path) => existsSync(path));
  if (system) return system;
  try {
    const own = chromium.executablePath();
    return own && existsSync(own) ? own : undefined;
  } catch {
    return undefined;
  }
}

const executablePath = findChromium();

/**
 * Why the browser tests cannot run here, or undefined when they can. On a
 * machine without a browser they are skipped with this reason, so that
 * `npm test` passes on a fresh clone; everything else is still tested.
 */
export const NO_BROWSER: string | undefined =
  executablePath === undefined
    ? 'no Chromium or Chrome found: install one (apt-get install chromium) or set CHROMIUM_PATH'
    : undefined;

export function launchChromium(): Promise<Browser> {
  if (executablePath === undefined) throw new Error(NO_BROWSER);
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}
