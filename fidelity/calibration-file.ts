/**
 * The calibration file: what the mock loads (`--calibration FILE`: the variant values and the shapes learned), and the
 * fidelity command's record of it — what was measured, what the reference answered each case (for `--check`: judged
 * aspects, status code and media type only), how alike the mock answered before and after, the axes no case shows,
 * and the gaps: each difference no setting of the mock removes. It holds no key, no record id and no merchant id of
 * the reference: the shapes hold placeholders, the rest holds verdicts and types; a last pass takes out any value of
 * the reference that would still be in it.
 */
import { writeFileSync } from 'node:fs';
import type { Collection } from '../core/model/collection.ts';
import { redact } from '../core/model/secrets.ts';
import { type Calibration, parseCalibration } from '../mock/index.ts';
import type { Case } from './cases.ts';
import type { Result } from './compare.ts';
import type { Seen } from './run.ts';
import { escapeRegExp } from './skeleton.ts';
import type { Answer } from './targets.ts';

/** What the reference answered a case, as `--check` compares it: each judged aspect's key, the status, media type. */
export type Signature = Record<string, string>;

/** A difference no setting of the mock removes. */
interface Gap {
  case: string;
  rule: string;
  aspect: string;
  /** What the reference answered. */
  reference: string;
  /** What the mock can answer to that case, over every setting tried. */
  mock: string[];
  /** Why the mock does not answer so: the reference breaks the rule, or no setting of the mock does it. */
  why: string;
}

export interface CalibrationRecord extends Calibration {
  /** The command that starts the mock this way. */
  mock: string;
  measured: {
    target: string;
    seed: number;
    runs: number;
    seen: Seen;
    collections: Collection[];
    cases: number;
    requests: number;
  };
  alike: { before: string; after: string };
  /** Axes left at their default, and why (no case shows them; the mock's own data). */
  unseen: Record<string, string>;
  /** How many cases each single value changes, as the mock was learnt. */
  learned: Record<string, number>;
  reference: Record<string, Signature>;
  gaps: Gap[];
}

/** What a `--check` compares of an answer. */
export function signatureOf(a: Answer): Signature {
  const out: Signature = Object.fromEntries(a.aspects.map((x) => [x.aspect, x.key]));
  if (a.features.code) out.code = a.features.code;
  if (a.features.media) out.media = a.features.media;
  return out;
}

/** An aspect of an answer in a few words: the exact status for the status, else its judged key. */
function told(a: Answer | string | undefined, aspect: string): string | undefined {
  if (!a || typeof a === 'string') return undefined;
  if (aspect === 'status') return a.features.code ? `HTTP ${a.features.code}` : a.aspects[0]?.key;
  return a.aspects.find((x) => x.aspect === aspect)?.key ?? 'absent';
}

/** The differences left after calibration, each with what the mock can answer over every run of it. */
export function gapsOf(
  after: readonly Result[],
  ref: ReadonlyMap<string, Answer | string>,
  runs: ReadonlyArray<ReadonlyMap<string, Answer | string>>,
): Gap[] {
  return after.flatMap((r) =>
    r.differences.map((d) => {
      const mock = [...new Set(runs.map((m) => told(m.get(r.case.id), d.aspect)).filter((x): x is string => !!x))];
      const breaks = (r.breaks ?? []).find((b) => b.startsWith('A '));
      const reference = told(ref.get(r.case.id), d.aspect) ?? d.a;
      return {
        case: `${r.case.id} ${r.case.label}`,
        rule: d.rule,
        aspect: d.aspect,
        reference,
        mock: mock.sort(),
        why: breaks
          ? `${breaks}: the mock keeps to the rule`
          : mock.includes(reference)
            ? 'the mock answers so only under a setting that answers more cases otherwise'
            : mock.length > 1
              ? 'no setting of the mock answers so'
              : 'the mock has no setting for this',
      };
    }),
  );
}

/** The reference's own values that must not be written: its merchant ids and string record ids. */
interface Secrets {
  merchantIds: readonly string[];
  recordIds: readonly string[];
}

/** A text with every value of the reference taken out (keys redacted, ids as placeholders). */
export function scrubbedText(text: string, s: Secrets): string {
  let out = redact(text);
  const all = [
    ...s.merchantIds.map((id) => [id, '{{merchantId}}'] as const),
    ...s.recordIds.map((id) => [id, '{{recordId}}'] as const),
  ].filter(([id]) => id.length >= 4);
  for (const [id, by] of all.sort((a, b) => b[0].length - a[0].length)) {
    out = out.replace(new RegExp(escapeRegExp(JSON.stringify(id).slice(1, -1)), 'g'), by);
  }
  return out;
}

/** A JSON value with every string (a field's name too) scrubbed: the structure stays JSON whatever a string held. */
function scrubbed<T>(value: T, s: Secrets): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrubbedText(v, s);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [scrubbedText(k, s), walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** The calibration file written, checked by the mock's own reader first. */
export function writeCalibration(file: string, record: CalibrationRecord, secrets: Secrets): void {
  const text = `${JSON.stringify(scrubbed(record, secrets), null, 2)}\n`;
  parseCalibration(text, file);
  writeFileSync(file, text);
}

/** The reference's answers as `--check` keeps them. */
export function referenceOf(
  cases: readonly Case[],
  ref: ReadonlyMap<string, Answer | string>,
): Record<string, Signature> {
  const out: Record<string, Signature> = {};
  for (const c of cases) {
    const a = ref.get(c.id);
    if (a && typeof a !== 'string') out[c.id] = signatureOf(a);
  }
  return out;
}
