/**
 * Allure's results (allure-results/), as allure-playwright writes them, without a flush to disk per file: its writer
 * fsyncs every result and attachment, on the runner's main thread, which also answers the bundled mock's requests
 * (measured: 0.1 to 0.45 s of that thread per run, docs/performance.md). The files are the same; a run that dies
 * mid-way leaves what the operating system had not yet written, which no report of a dead run is read for. The result
 * and attachment writes, the frequent ones, are replaced; the rest (the environment, once) goes to Allure's own writer.
 * allure-playwright is pinned (package.json): tests/unit/allure.test.ts proves the writer is where this expects it.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import type { Suite } from '@playwright/test/reporter';
import { AllureReporter } from 'allure-playwright';

/** What this module replaces of allure-js-commons' FileSystemWriter (the pinned version's public methods). */
interface ResultsWriter {
  buildPath(name: string): string;
  writeAttachment(name: string, content: Buffer | string): void;
  writeAttachmentFromPath(name: string, from: string): void;
  writeResult(result: { uuid: string }): void;
  writeGroup(result: { uuid: string }): void;
}

/** Allure's writer with its frequent writes done without an fsync each; every other call goes to it. */
function unsyncedWriter(writer: ResultsWriter): ResultsWriter {
  const json = (name: string, data: unknown) => writeFileSync(writer.buildPath(name), JSON.stringify(data), 'utf-8');
  return Object.assign(Object.create(writer) as ResultsWriter, {
    writeAttachment: (name: string, content: Buffer | string) => writeFileSync(writer.buildPath(name), content),
    writeAttachmentFromPath: (name: string, from: string) => copyFileSync(from, writer.buildPath(name)),
    writeResult: (result: { uuid: string }) => json(`${result.uuid}-result.json`, result),
    writeGroup: (result: { uuid: string }) => json(`${result.uuid}-container.json`, result),
  });
}

export default class AllureResults extends AllureReporter {
  override onBegin(suite: Suite): void {
    super.onBegin(suite);
    const runtime = (this as unknown as { allureRuntime?: { writer?: ResultsWriter } }).allureRuntime;
    if (runtime?.writer) runtime.writer = unsyncedWriter(runtime.writer);
  }
}
