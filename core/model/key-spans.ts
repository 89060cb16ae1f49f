/**
 * Where a text shows a key in any form of key-forms.ts, or most of its random part (key-quote.ts, what the key-leak
 * scan calls a partial quote), as spans of the text itself, so that redaction (secrets.ts) removes exactly those
 * characters: an encoded form with the whole run of encoding characters around it (no
 * neighbouring character left to carry a few of its bits, no padding), a form seen in a decoded view with every
 * escape that spelled it.
 */
import { type Decoder, formsIn, type KeyForms, views } from './key-forms.ts';
import { partialQuotes } from './key-quote.ts';

/** A decoded text and, for each of its characters, the span [from, to) of the original text it was decoded from. */
interface Traced {
  text: string;
  from: number[];
  to: number[];
}

/** The spans [start, end) of `text` that show one of `keys`, merged and in order. */
export function keySpans(text: string, keys: readonly KeyForms[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const view of views(text)) {
    // The views, formsIn and the quotes' anchors are the cheap test; the tracing below is for the rare text that holds
    // a key. A view's quotes are found in its lower-cased text, whose positions are the view's own.
    const shown = keys.filter((k) => !formsIn(k, view).next().done);
    const quoted = keys.flatMap((k) => partialQuotes(k.key, view.lower));
    if (shown.length === 0 && quoted.length === 0) continue;
    const traced = view.steps.reduce(decodeTraced, identity(text));
    const found = [
      ...shown.flatMap((k) => locate(k, traced.text)),
      ...quoted.map((q): [number, number] => [q.start, q.end]),
    ];
    for (const [s, e] of found) spans.push([traced.from[s] as number, traced.to[e - 1] as number]);
  }
  return merged(spans);
}

const identity = (text: string): Traced => ({
  text,
  from: Array.from(text, (_, i) => i),
  to: Array.from(text, (_, i) => i + 1),
});

/** `src` decoded by `d`, each decoded character traced to the escape it came from. */
function decodeTraced(src: Traced, d: Decoder): Traced {
  const out: Traced = { text: '', from: [], to: [] };
  const keep = (start: number, end: number) => {
    out.text += src.text.slice(start, end);
    for (let i = start; i < end; i++) {
      out.from.push(src.from[i] as number);
      out.to.push(src.to[i] as number);
    }
  };
  let last = 0;
  for (const m of src.text.matchAll(d.token)) {
    keep(last, m.index);
    last = m.index + m[0].length;
    const decoded = d.decode(m[0]);
    out.text += decoded;
    for (let i = 0; i < decoded.length; i++) {
      out.from.push(src.from[m.index] as number);
      out.to.push(src.to[last - 1] as number);
    }
  }
  keep(last, src.text.length);
  return out;
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The spans of `text` that show the key whole: as is in any case, or encoded (widened to the encoding's run). */
function locate(k: KeyForms, text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const m of text.matchAll(new RegExp(escaped(k.key), 'gi'))) spans.push([m.index, m.index + m[0].length]);
  for (const f of k.encoded) {
    const encoding = (i: number) => {
      const c = text.charCodeAt(i);
      return f.alphabet[c >= 65 && c <= 90 ? c + 32 : c] === 1; // undefined beyond ASCII
    };
    for (const m of text.matchAll(new RegExp(escaped(f.needle), f.caseless ? 'gi' : 'g'))) {
      let [start, end] = [m.index, m.index + m[0].length];
      while (start > 0 && encoding(start - 1)) start--;
      while (end < text.length && encoding(end)) end++;
      spans.push([start, end]);
    }
  }
  return spans;
}

function merged(spans: Array<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [s, e] of spans.sort((a, b) => a[0] - b[0])) {
    const last = out.at(-1);
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}
