/**
 * The markdown check of the lint stage (`npm run lint`): code fences that open and close as meant (CommonMark §4.5).
 * A fence closes only on a line of the same character, at least as long, with nothing after it: a line such as
 * "``` Where the package is installed" inside a block closes nothing, and turns the rest of the page into code.
 * Named files, or every tracked *.md of the project; exits 1 naming each problem by file and line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** The fence problems of a markdown text: `line N: …`, one each. */
export function fenceProblems(text: string): string[] {
  const problems: string[] = [];
  let open: { marker: string; line: number } | undefined;
  for (const [i, line] of text.split('\n').entries()) {
    const m = FENCE.exec(line);
    if (!m) continue;
    const [, marker = '', rest = ''] = m;
    if (!open) {
      // An info string of a backtick fence may not hold a backtick (CommonMark): such a line is no fence.
      if (marker.startsWith('`') && rest.includes('`')) continue;
      open = { marker, line: i + 1 };
    } else if (marker[0] === open.marker[0] && marker.length >= open.marker.length) {
      if (rest.trim() === '') open = undefined;
      else
        problems.push(
          `line ${i + 1}: text after a fence inside the block opened at line ${open.line} ("${line.trim().slice(0, 40)}"): it closes nothing; put the fence on a line of its own`,
        );
    }
  }
  if (open) problems.push(`line ${open.line}: a code fence that never closes`);
  return problems;
}

/** The project's markdown files: README.md and everything under docs/ (node_modules and reports aside). */
export function markdownFiles(root = '.'): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? under(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
    );
  return ['README.md', ...under('docs')];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = process.argv.length > 2 ? process.argv.slice(2) : markdownFiles();
  const problems = files.flatMap((f) => fenceProblems(readFileSync(f, 'utf8')).map((p) => `${f} ${p}`));
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
  console.log(`markdown: ${files.length} files, every code fence closes`);
}
