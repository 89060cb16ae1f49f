/**
 * The read-only proof over a run's request logs: every requests.ndjson under a folder, the methods its lines hold.
 * The suite sends GET, HEAD and OPTIONS only; a line with any other method is a defect of the suite.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isSafeMethod } from '../../core/model/endpoints.ts';

export interface MethodScan {
  /** requests.ndjson files read. */
  files: number;
  /** Requests read, by method. */
  methods: Record<string, number>;
  /** Files holding a method outside GET, HEAD and OPTIONS, with that method. */
  unsafe: Array<{ file: string; method: string }>;
}

export function scanRequestMethods(roots: readonly string[]): MethodScan {
  const scan: MethodScan = { files: 0, methods: {}, unsafe: [] };
  const visit = (path: string) => {
    let entries: string[];
    try {
      entries = statSync(path).isDirectory() ? readdirSync(path) : [];
    } catch {
      return;
    }
    for (const name of entries) {
      const child = join(path, name);
      if (name === 'requests.ndjson') read(child);
      else if (!name.includes('.')) visit(child);
      else if (statSync(child).isDirectory()) visit(child);
    }
  };
  const read = (file: string) => {
    scan.files += 1;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      const method = String((JSON.parse(line) as { method?: unknown }).method);
      scan.methods[method] = (scan.methods[method] ?? 0) + 1;
      if (!isSafeMethod(method) && !scan.unsafe.some((u) => u.file === file && u.method === method)) {
        scan.unsafe.push({ file, method });
      }
    }
  };
  for (const root of roots) visit(root);
  return scan;
}
