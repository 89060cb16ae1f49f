/**
 * The size check of the lint stage (`npm run lint`): no function of the shipped code and its scripts is longer than
 * MAX_LINES lines, from the first line of its declaration to its closing line (nested functions count in the function
 * that holds them). A function that long does several jobs; its parts get names. The tests are not measured, nor a
 * spec's list of checks (a `test.describe` block, the block of checks `eachCollection` declares per collection, or a
 * function whose every statement declares a check: a list, not a function a reader follows). `--list N` prints every function
 * of N lines or more, longest first. Parsed with the TypeScript compiler, JavaScript (bin/) too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export const MAX_LINES = 80;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** What is measured: every production folder and root file, and the scripts. */
const MEASURED = ['bin', 'checks', 'commands', 'core', 'fixtures', 'mock', 'reporters', 'scripts', 'specs'];

export interface FunctionSize {
  file: string;
  line: number;
  name: string;
  lines: number;
}

/** The source files measured: .ts and .js of the measured folders and the root (generated schemas aside). */
export function measuredFiles(root = ROOT): string[] {
  const inFolders = MEASURED.flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) => `${dir}/${f}`),
  );
  const atRoot = readdirSync(root).filter((f) => /\.(ts|js)$/.test(f));
  return [...atRoot, ...inFolders].filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.compiled.ts')).sort();
}

/** Whether a function is a list of checks: a `describe` block, `eachCollection`'s block, or only `test(…)` calls. */
function isDescribeBlock(node: ts.Node): boolean {
  const call = node.parent;
  if (call && ts.isCallExpression(call)) {
    const callee = call.expression.getText();
    if (/(^|\.)describe(\.(serial|parallel|only|skip))?$|^eachCollection$/.test(callee)) return true;
  }
  const body = (node as { body?: ts.Node }).body;
  if (!body || !ts.isBlock(body) || body.statements.length === 0) return false;
  return body.statements.every(
    (st) =>
      (ts.isExpressionStatement(st) &&
        ts.isCallExpression(st.expression) &&
        /^test(\.describe)?$/.test(st.expression.expression.getText())) ||
      // a one-line name for what the checks share
      (ts.isVariableStatement(st) && !st.getText().includes('\n')),
  );
}

/** A function's name as a reader finds it: its own, its variable's, its property's or method's, else `(anonymous)`. */
function nameOf(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name) return named.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) return parent.name.getText();
  return '(anonymous)';
}

/** Every function of a source text, with its length in lines. */
export function functionSizes(file: string, text: string): FunctionSize[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const sizes: FunctionSize[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body && !isDescribeBlock(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      sizes.push({ file, line: first + 1, name: nameOf(node), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sizes;
}

/** Every function of the measured files, longest first. */
export function allFunctionSizes(root = ROOT): FunctionSize[] {
  return measuredFiles(root)
    .flatMap((f) => functionSizes(f, readFileSync(join(root, f), 'utf8')))
    .sort((a, b) => b.lines - a.lines);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--list');
  const sizes = allFunctionSizes();
  if (at >= 0) {
    const min = Number(process.argv[at + 1] ?? MAX_LINES);
    for (const s of sizes.filter((x) => x.lines >= min)) console.log(`${s.lines}\t${s.file}:${s.line}\t${s.name}`);
  } else {
    const long = sizes.filter((s) => s.lines > MAX_LINES);
    for (const s of long) {
      console.error(
        `${relative(process.cwd(), join(ROOT, s.file))}:${s.line}: ${s.name} is ${s.lines} lines (at most ${MAX_LINES})`,
      );
    }
    process.exitCode = long.length > 0 ? 1 : 0;
  }
}
