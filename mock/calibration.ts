/**
 * A calibration file (`payment-api-mock --calibration FILE`, written by `payment-api-conformance fidelity --calibrate`):
 * the variant values closest to another API and the shapes learned from it (shapes.ts). The mock reads these two parts;
 * the rest of the file (what was measured, the cases, the gaps) is the fidelity command's.
 */
import { readFileSync } from 'node:fs';
import type { ErrorShape, Shapes } from './shapes.ts';
import { resolveVariants, VariantError } from './variants.ts';

const CALIBRATION_FORMAT = 'payment-api-mock-calibration';

export interface Calibration {
  format: typeof CALIBRATION_FORMAT;
  version: 1;
  /** The variant values chosen (`name: value`); an axis left out keeps its default. */
  variants: Record<string, string>;
  shapes: Shapes;
}

export class CalibrationError extends Error {
  override name = 'CalibrationError';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown) =>
  v === undefined || (isObject(v) && Object.values(v).every((x) => typeof x === 'string'));

/** What is wrong with the shapes part, if anything. */
function shapeProblems(shapes: unknown): string[] {
  if (shapes === undefined) return [];
  if (!isObject(shapes)) return ['shapes is not an object'];
  const problems: string[] = [];
  const body = (where: string, s: unknown) => {
    if (!isObject(s)) return problems.push(`${where} is not an object`);
    if (s.type !== undefined && typeof s.type !== 'string') problems.push(`${where}.type is not a string`);
    if (!isStrings(s.headers)) problems.push(`${where}.headers is not an object of strings`);
    return 0;
  };
  const errors = shapes.errors;
  if (errors !== undefined && !Array.isArray(errors)) problems.push('shapes.errors is not an array');
  for (const [i, e] of (Array.isArray(errors) ? errors : []).entries()) {
    body(`shapes.errors[${i}]`, e);
    const { status, kinds } = (isObject(e) ? e : {}) as ErrorShape;
    if (status !== undefined && !Number.isInteger(status))
      problems.push(`shapes.errors[${i}].status is not an integer`);
    if (kinds !== undefined && !(Array.isArray(kinds) && kinds.every((k) => typeof k === 'string')))
      problems.push(`shapes.errors[${i}].kinds is not a list of names`);
  }
  if (shapes.status !== undefined) body('shapes.status', shapes.status);
  if (shapes.envelope !== undefined && !isObject(shapes.envelope)) problems.push('shapes.envelope is not an object');
  if (!isStrings(shapes.headers)) problems.push('shapes.headers is not an object of strings');
  if (!isStrings(shapes.statuses)) problems.push('shapes.statuses is not an object of strings');
  return problems;
}

/** A calibration read from its JSON text; throws CalibrationError naming every problem. */
export function parseCalibration(text: string, source = 'the calibration'): Calibration {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CalibrationError(`${source} is not JSON (${(error as Error).message})`);
  }
  if (!isObject(json) || json.format !== CALIBRATION_FORMAT)
    throw new CalibrationError(`${source} is not a calibration file (no "format": "${CALIBRATION_FORMAT}")`);
  const problems = [...(json.version === 1 ? [] : [`version ${String(json.version)} is not 1`])];
  if (!isStrings(json.variants)) problems.push('variants is not an object of name: value');
  problems.push(...shapeProblems(json.shapes));
  try {
    if (isStrings(json.variants)) resolveVariants((json.variants ?? {}) as Record<string, string>);
  } catch (error) {
    if (!(error instanceof VariantError)) throw error;
    problems.push(error.message);
  }
  if (problems.length) throw new CalibrationError(`${source}: ${problems.join('; ')}`);
  return {
    ...(json as unknown as Calibration),
    variants: json.variants ?? {},
    shapes: json.shapes ?? {},
  } as Calibration;
}

/** A calibration file read from disk; throws CalibrationError (unreadable, not one, invalid). */
export function readCalibration(file: string): Calibration {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CalibrationError(`cannot read ${file} (${(error as { code?: string }).code ?? 'error'})`);
  }
  return parseCalibration(text, file);
}
