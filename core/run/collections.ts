/**
 * The collections a run checks besides the spec's payments (`--collections FILE`, API_COLLECTIONS), read once by the
 * main process before any request and published to the workers (COLLECTIONS_VAR, core/model/collection.ts): a
 * collections file, JSON or YAML (collections-file.ts), or an OpenAPI 3.0/3.1 document, told apart by its `openapi`
 * field (collections-openapi.ts). A file that cannot be used is a bad configuration (exit 2): ConfigError, each
 * problem naming the file, the line and JSON pointer, and what is wrong.
 */
import { resolve } from 'node:path';
import { COLLECTIONS_VAR, type Collection } from '../model/collection.ts';
import { collectionsOfFile, inLineOrder, parseFile } from './collections-file.ts';
import { collectionsOfOpenApi } from './collections-openapi.ts';
import { ConfigError } from './config.ts';

export interface LoadedCollections {
  collections: Collection[];
  /** What the file left out that a reader should know (an OpenAPI document's payments operation). */
  notes: string[];
}

/**
 * The collections FILE declares, checked and with their defaults; throws ConfigError naming every mistake of the file
 * in the order of its lines, so that one run says all there is to fix.
 */
export async function loadCollections(file: string, cwd = process.cwd()): Promise<LoadedCollections> {
  try {
    const parsed = parseFile(resolve(cwd, file));
    const value = parsed.value;
    if (typeof value === 'object' && value !== null && 'openapi' in value) return await collectionsOfOpenApi(parsed);
    return { collections: collectionsOfFile(parsed), notes: [] };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(inLineOrder(error.problems), error.target);
  }
}

/** Publishes the collections to the workers (they inherit the main process's environment). */
export function publishCollections(collections: readonly Collection[], env: NodeJS.ProcessEnv = process.env): void {
  if (collections.length === 0) delete env[COLLECTIONS_VAR];
  else env[COLLECTIONS_VAR] = JSON.stringify(collections);
}
