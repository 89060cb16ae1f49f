/**
 * A real browser for the self-test's pages: Debian's `chromium` (/usr/bin/chromium) driven by Playwright through its
 * executablePath, offline. Where it is missing the stage tries `apt-get install -y chromium` (as root, once), and
 * otherwise says why it skips the browser checks.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from '@playwright/test';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Chromium, installed if it can be; or the reason there is none. */
export function ensureChromium(): { ok: true } | { ok: false; reason: string } {
  if (existsSync(CHROMIUM)) return { ok: true };
  if (process.getuid?.() !== 0)
    return { ok: false, reason: `${CHROMIUM} is missing and this is not root (apt-get install -y chromium)` };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '-q', 'chromium'], { encoding: 'utf8', timeout: 300_000 });
  let r = install();
  if (existsSync(CHROMIUM)) return { ok: true };
  // A fresh machine's package lists may be empty: read them once, then try again.
  spawnSync('apt-get', ['update', '-q'], { encoding: 'utf8', timeout: 180_000 });
  r = install();
  if (existsSync(CHROMIUM)) return { ok: true };
  const why = r.error ? r.error.message : (r.stderr || r.stdout).trim().split('\n').slice(-1)[0];
  return { ok: false, reason: `${CHROMIUM} is missing and apt-get install -y chromium failed (${why})` };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface PageSeen {
  title: string;
  headline: string;
  text: string;
  html: string;
  /** Every request the page made that is not the file itself or inline data. */
  requests: string[];
}

/** Opens a file from disk (a file:// URL) and reads what a person would see. */
export async function openFromDisk(browser: Browser, path: string, settleMs = 0): Promise<PageSeen> {
  const page = await browser.newPage();
  const url = `file://${path}`;
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.url() !== url && !r.url().startsWith('data:')) requests.push(r.url());
  });
  try {
    await page.goto(url, { waitUntil: 'load' });
    if (settleMs) await page.waitForTimeout(settleMs);
    const headline =
      (await page
        .locator('h1')
        .first()
        .textContent({ timeout: 5000 })
        .catch(() => '')) ?? '';
    return {
      title: await page.title(),
      headline: headline.trim(),
      text: await page.evaluate(() => document.body.innerText),
      html: await page.content(),
      requests,
    };
  } finally {
    await page.close();
  }
}
