/**
 * `scanPaths` in parts, one process each (the self-test's last stage sweeps some 300 MB of reports on an otherwise
 * idle machine: one process per core). The files are dealt out by size, largest first, to the lightest part. Run as a
 * script, this file is one part: it reads its files, keys and patterns as JSON on stdin (never in its arguments: the
 * keys are secrets) and writes what it found as JSON on stdout.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { filesUnder, type Hit, scanFiles } from './scan.ts';

interface Part {
  files: string[];
  keys: string[];
  patterns: Array<{ source: string; flags: string }>;
  deepUpTo: number | null;
}

const SELF = fileURLToPath(import.meta.url);

/** The files under `paths` dealt into `parts` lists of about equal size. */
export function dealt(paths: readonly string[], parts: number): string[][] {
  const sized = filesUnder(paths).map((f) => ({ f, size: statSync(f, { throwIfNoEntry: false })?.size ?? 0 }));
  const out = Array.from({ length: Math.max(1, parts) }, () => ({ files: [] as string[], size: 0 }));
  for (const { f, size } of sized.sort((a, b) => b.size - a.size)) {
    const lightest = out.reduce((a, b) => (b.size < a.size ? b : a));
    lightest.files.push(f);
    lightest.size += size;
  }
  return out.map((p) => p.files).filter((files) => files.length > 0);
}

/** `scanPaths(paths, keys, patterns, deepUpTo)`, in `parts` processes at once. */
export async function scanInParts(
  paths: readonly string[],
  keys: readonly string[],
  patterns: readonly RegExp[],
  deepUpTo: number,
  parts: number,
): Promise<{ files: number; hits: Hit[] }> {
  const results = await Promise.all(
    dealt(paths, parts).map((files) =>
      scanPart({
        files,
        keys: [...keys],
        patterns: patterns.map((p) => ({ source: p.source, flags: p.flags })),
        deepUpTo: Number.isFinite(deepUpTo) ? deepUpTo : null,
      }),
    ),
  );
  return { files: results.reduce((n, r) => n + r.files, 0), hits: results.flatMap((r) => r.hits) };
}

function scanPart(part: Part): Promise<{ files: number; hits: Hit[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SELF], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`a part of the scan exited ${code}`));
      else resolve(JSON.parse(out));
    });
    child.stdin.end(JSON.stringify(part));
  });
}

if (process.argv[1] === SELF) {
  let input = '';
  process.stdin.setEncoding('utf8').on('data', (d: string) => {
    input += d;
  });
  process.stdin.on('end', () => {
    const part = JSON.parse(input) as Part;
    const patterns = part.patterns.map((p) => new RegExp(p.source, p.flags));
    const deep = part.deepUpTo ?? Number.POSITIVE_INFINITY;
    process.stdout.write(JSON.stringify(scanFiles(part.files, part.keys, patterns, deep)));
  });
}
