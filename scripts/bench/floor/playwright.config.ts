/**
 * The framework's floor (`npm run bench`): an empty Playwright run of two trivial tests with the suite's two workers,
 * what no suite on Playwright can beat; the bench times the suite's standard run against it, paired.
 */
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: 'floor.spec.ts',
  fullyParallel: true,
  workers: 2,
  reporter: 'list',
  // Playwright's output folder, in the reports (never beside the config, in the sources): the bench's folder is
  // relative to where it runs, and Playwright would resolve it against this file's.
  outputDir: process.env.FLOOR_OUTPUT_DIR
    ? resolve(process.env.FLOOR_OUTPUT_DIR)
    : '../../../reports/bench/floor-results',
});
