// Headless Chromium for the web interface's tests: Debian's `chromium` driven by playwright-core (no browser
// download). ENTIA_TEST_CHROMIUM names the binary (.ci/run sets it and installs the package); without it, a
// checkout that lacks /usr/bin/chromium skips the browser tests with a note, never silently passes them.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const DEFAULT_CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM = process.env.ENTIA_TEST_CHROMIUM ?? DEFAULT_CHROMIUM;
/** A reason to skip, or false: only when no browser was asked for and none is installed. */
export const skipBrowser = process.env.ENTIA_TEST_CHROMIUM === undefined && !existsSync(DEFAULT_CHROMIUM)
  ? 'Debian\'s chromium is not installed (apt-get install chromium; .ci/run does)' : false;

/** Screenshots of every run land here (gitignored), one file per page and backend. */
export const SCREENSHOTS = join(import.meta.dirname, '../../test-output/ui');

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    // The flags a sandboxed, offline machine needs: no sandbox as root, no GPU, and no calls home (they are
    // refused here and would slow every start).
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/** Console messages about Content-Security-Policy violations: a page must load with none. */
export function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}
