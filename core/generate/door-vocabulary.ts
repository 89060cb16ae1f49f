/**
 * The vocabulary of inputs the spec does not document, kept as data (vocabulary.json: each name with the places it
 * goes, its class and where it comes from), and a user's own file of the same shape (`--vocabulary FILE`,
 * API_VOCABULARY), validated before any request. Names that could make a read do anything but read (a method
 * override) or that HTTP itself owns (Host, Content-Length, hop-by-hop headers) are never sent, whoever lists them.
 */
import { readFileSync } from 'node:fs';
import type { DoorSource } from '../model/door-tally.ts';
import {
  CHANNELS,
  DOOR_CLASSES,
  type DoorClass,
  TEMPLATES,
  type ValueTemplate,
  type VocabularyEntry,
} from '../model/doors.ts';
import builtIn from './vocabulary.json' with { type: 'json' };

/** The values a name is tried with when its entry gives none: its class's. */
export const CLASS_VALUES: Readonly<Record<DoorClass, readonly ValueTemplate[]>> = {
  identity: ['{merchant}'],
  scope: ['all', 'true'],
  mode: ['live', 'test'],
  format: ['csv', 'json'],
  credentials: ['{key}'],
  debug: ['true', '1'],
};

/**
 * Never sent, in any channel: a method override would turn the suite's read into a write (it sends GET, HEAD and
 * OPTIONS only); the others are HTTP's own framing, routing and caching, a proxy's own credential (a proxy between the
 * suite and the target takes it, and the client refuses it beside a configured proxy), or the documented credential.
 */
const NEVER = new Set(
  [
    'x-http-method-override',
    'x-http-method',
    'x-method-override',
    '_method',
    'method',
    'authorization',
    'proxy-authorization',
    'proxy-connection',
    'host',
    'content-length',
    'transfer-encoding',
    'connection',
    'keep-alive',
    'upgrade',
    'expect',
    'te',
    'trailer',
    'range',
    'if-none-match',
    'if-modified-since',
    'if-match',
    'if-unmodified-since',
    'if-range',
    'accept-encoding',
  ].map((n) => n.toLowerCase()),
);

/** Whether a name may be sent in a channel (never a method override, nor a header HTTP owns). */
export const sendable = (name: string): boolean => !NEVER.has(name.toLowerCase());

/** A header name as HTTP allows it (RFC 9110 §5.1: a token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The problems of one entry, each naming it by its position. */
function entryProblems(e: unknown, at: string): string[] {
  if (typeof e !== 'object' || e === null) return [`${at} is not an object`];
  const { name, in: channels, class: klass, source, values, ...rest } = e as Record<string, unknown>;
  const problems: string[] = [];
  if (typeof name !== 'string' || name.trim() === '') problems.push(`${at}: "name" must be a non-empty string`);
  else if (!sendable(name)) problems.push(`${at}: "${name}" is never sent (a method override or a header HTTP owns)`);
  if (!Array.isArray(channels) || channels.length === 0 || !channels.every((c) => CHANNELS.includes(c)))
    problems.push(`${at}: "in" must list one or more of ${CHANNELS.join(', ')}`);
  else if (typeof name === 'string' && channels.some((c) => c !== 'query') && !TOKEN.test(name))
    problems.push(`${at}: "${name}" is no valid header or cookie name`);
  if (!DOOR_CLASSES.includes(klass as DoorClass))
    problems.push(`${at}: "class" must be one of ${DOOR_CLASSES.join(', ')}`);
  if (typeof source !== 'string' || source.trim() === '')
    problems.push(`${at}: "source" must say where the name comes from`);
  if (values !== undefined && (!Array.isArray(values) || !values.every((v) => typeof v === 'string')))
    problems.push(`${at}: "values" must be a list of strings (or ${TEMPLATES.join(', ')})`);
  for (const k of Object.keys(rest)) problems.push(`${at}: unknown field "${k}"`);
  return problems;
}

/** A vocabulary's entries, or every problem of its text (named by `file`). */
export function parseVocabulary(text: string, file: string): { entries: VocabularyEntry[]; problems: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { entries: [], problems: [`${file} is not JSON`] };
  }
  const entries = (json as { entries?: unknown } | null)?.entries;
  if (!Array.isArray(entries)) return { entries: [], problems: [`${file} has no "entries" list`] };
  const problems = entries.flatMap((e, i) => entryProblems(e, `${file} entries[${i}]`));
  return { entries: problems.length ? [] : (entries as VocabularyEntry[]), problems };
}

/** The built-in vocabulary (vocabulary.json). */
export const BUILT_IN: readonly VocabularyEntry[] = builtIn.entries as VocabularyEntry[];

/** A user's vocabulary file: its entries, or every problem (a file that cannot be read included). */
export function readVocabulary(file: string): { entries: VocabularyEntry[]; problems: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return { entries: [], problems: [`${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`] };
  }
  return parseVocabulary(text, file);
}

/** Every vocabulary of the run with its source: the built-in one, then the user's (API_VOCABULARY) when given. */
export function vocabularies(
  userFile: string | undefined,
): Array<{ source: DoorSource; entries: readonly VocabularyEntry[] }> {
  const out: Array<{ source: DoorSource; entries: readonly VocabularyEntry[] }> = [
    { source: 'vocabulary', entries: BUILT_IN },
  ];
  if (userFile) out.push({ source: 'user vocabulary', entries: readVocabulary(userFile).entries });
  return out;
}
