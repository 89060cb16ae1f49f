/**
 * The suite's version: its own package.json's (next to the sources in a clone, one level up from dist/ when installed),
 * which every report names. The command (bin/, plain JavaScript) reads the same file itself.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PACKAGE_NAME } from '../model/outputs.ts';

/** The package's version, or 'unknown' when its package.json cannot be found. */
export function suiteVersion(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    const path = fileURLToPath(new URL(up, import.meta.url));
    if (!existsSync(path)) continue;
    try {
      const pkg = JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === PACKAGE_NAME && pkg.version) return pkg.version;
    } catch {
      // not ours
    }
  }
  return 'unknown';
}
