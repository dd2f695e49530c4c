/**
 * Generates `lib/py/unicode/tables.ts` — the Unicode character data that Python's `str` methods depend on — from
 * the `@unicode/unicode-14.0.0` npm package (Unicode 14.0.0 is the database of CPython 3.11, which produced every
 * reference value). Run by `deno task unicode`; the program ships only the generated tables. Moving to another
 * Unicode version (CPython 3.12 uses 15.0.0) is a change of `VERSION` and one regeneration.
 *
 * @module
 */

/** The npm package the tables come from. */
const PACKAGE = "npm:@unicode/unicode-14.0.0@2.0.7";
const VERSION = "14.0.0";
const OUTPUT = new URL("./tables.ts", import.meta.url);

interface Range {
  begin: number;
  end: number;
}

async function ranges(path: string): Promise<Range[]> {
  return (await import(`${PACKAGE}/${path}/ranges.mjs`)).default as Range[];
}

async function mapping<T>(path: string): Promise<Map<number, T>> {
  return (await import(`${PACKAGE}/${path}/code-points.mjs`)).default as Map<number, T>;
}

/** Merges ranges (end exclusive) into sorted, disjoint, non-adjacent inclusive [first, last] pairs. */
function merge(all: Range[]): [number, number][] {
  const sorted = [...all].sort((a, b) => a.begin - b.begin);
  const out: [number, number][] = [];
  for (const { begin, end } of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && begin <= last[1] + 1) last[1] = Math.max(last[1], end - 1);
    else out.push([begin, end - 1]);
  }
  return out;
}

function subtract(pairs: [number, number][], point: number): [number, number][] {
  return pairs.flatMap(([first, last]): [number, number][] => {
    if (point < first || point > last) return [[first, last]];
    const parts: [number, number][] = [];
    if (first < point) parts.push([first, point - 1]);
    if (point < last) parts.push([point + 1, last]);
    return parts;
  });
}

/** Ranges as base-36 deltas: first minus the previous last, then length − 1. */
function encodeRanges(pairs: [number, number][]): string {
  let previous = 0;
  const parts: string[] = [];
  for (const [first, last] of pairs) {
    parts.push((first - previous).toString(36), (last - first).toString(36));
    previous = last;
  }
  return parts.join(",");
}

/**
 * A simple (one-to-one) case mapping as runs `start,count,stride,delta` (base 36, start as a delta from the
 * previous run's start, delta signed): code points start, start+stride, … map to themselves plus delta.
 */
function encodeSimple(map: Map<number, number>): string {
  const entries = [...map].filter(([from, to]) => from !== to).sort((a, b) => a[0] - b[0]);
  const runs: [number, number, number, number][] = [];
  for (const [from, to] of entries) {
    const delta = to - from;
    const run = runs[runs.length - 1];
    if (run !== undefined && run[3] === delta) {
      const [start, count, stride] = run;
      const next = start + count * stride;
      if (count === 1 && from - start <= 2) {
        run[1] = 2;
        run[2] = from - start;
        continue;
      }
      if (from === next) {
        run[1]++;
        continue;
      }
    }
    runs.push([from, 1, 1, delta]);
  }
  let previous = 0;
  const parts: string[] = [];
  for (const [start, count, stride, delta] of runs) {
    parts.push((start - previous).toString(36), count.toString(36), stride.toString(36), delta.toString(36));
    previous = start;
  }
  return parts.join(",");
}

/** Full (one-to-many) mappings that differ from the simple one: `code:mapped mapped …` in base 36, `;`-joined. */
function encodeSpecial(special: Map<number, number[]>, simple: Map<number, number>): string {
  return [...special].filter(([from, to]) => !(to.length === 1 && to[0] === (simple.get(from) ?? from)))
    .sort((a, b) => a[0] - b[0])
    .map(([from, to]) => `${from.toString(36)}:${to.map((code) => code.toString(36)).join(" ")}`)
    .join(";");
}

/** A long string as a `+`-joined literal of lines that fit the formatter's width. */
function literal(text: string): string {
  const lines: string[] = [];
  for (let index = 0; index < text.length; index += 96) {
    lines.push(JSON.stringify(text.slice(index, index + 96)));
  }
  return lines.length === 0 ? '""' : lines.join(" +\n  ");
}

/** One table's declaration: its encoded text as a string literal. */
function table(name: string, encoded: string): string {
  return `export const ${name} =\n  ${literal(encoded)};`;
}

const nonPrintable = subtract(
  merge(
    (await Promise.all(
      [
        "Control",
        "Format",
        "Surrogate",
        "Private_Use",
        "Unassigned",
        "Line_Separator",
        "Paragraph_Separator",
        "Space_Separator",
      ].map((category) => ranges(`General_Category/${category}`)),
    )).flat(),
  ),
  0x20,
);
const decimal = merge(await ranges("General_Category/Decimal_Number"));
// CPython's str.isspace(): bidirectional class WS, B or S, or general category Zs.
const whitespace = merge(
  (await Promise.all(
    ["Bidi_Class/White_Space", "Bidi_Class/Paragraph_Separator", "Bidi_Class/Segment_Separator"]
      .concat("General_Category/Space_Separator")
      .map((path) => ranges(path)),
  )).flat(),
);
const cased = merge(await ranges("Binary_Property/Cased"));
const caseIgnorable = merge(await ranges("Binary_Property/Case_Ignorable"));
const simpleUpper = await mapping<number>("Simple_Case_Mapping/Uppercase");
const simpleLower = await mapping<number>("Simple_Case_Mapping/Lowercase");
const specialUpper = await mapping<number[]>("Special_Casing/Uppercase");
const specialLower = await mapping<number[]>("Special_Casing/Lowercase");

const source = `// Generated by lib/py/unicode/generate.ts from ${
  PACKAGE.slice(4)
} — do not edit; run \`deno task unicode\`.
/**
 * Unicode ${VERSION} character data for Python's \`str\` semantics, encoded compactly (see generate.ts).
 *
 * @module
 */

/** The Unicode version these tables describe. */
export const UNICODE_VERSION = "${VERSION}";

/** Code points \`str.isprintable()\` rejects (Cc Cf Cs Co Cn Zl Zp, Zs except U+0020), as ranges. */
${table("NON_PRINTABLE_RANGES", encodeRanges(nonPrintable))}

/** General category Nd (decimal digits), as ranges. */
${table("DECIMAL_RANGES", encodeRanges(decimal))}

/** Characters \`str.isspace()\` accepts (bidi class WS, B, S or category Zs), as ranges. */
${table("WHITESPACE_RANGES", encodeRanges(whitespace))}

/** The Cased property, as ranges. */
${table("CASED_RANGES", encodeRanges(cased))}

/** The Case_Ignorable property, as ranges. */
${table("CASE_IGNORABLE_RANGES", encodeRanges(caseIgnorable))}

/** Simple uppercase mapping, as runs. */
${table("UPPER_RUNS", encodeSimple(simpleUpper))}

/** Simple lowercase mapping, as runs. */
${table("LOWER_RUNS", encodeSimple(simpleLower))}

/** Unconditional full uppercase mappings (SpecialCasing.txt) that differ from the simple one. */
${table("UPPER_SPECIAL", encodeSpecial(specialUpper, simpleUpper))}

/** Unconditional full lowercase mappings (SpecialCasing.txt) that differ from the simple one. */
${table("LOWER_SPECIAL", encodeSpecial(specialLower, simpleLower))}
`;
await Deno.writeTextFile(OUTPUT, source);
console.log(`wrote ${OUTPUT.pathname} (${source.length} bytes, Unicode ${VERSION})`);
