/**
 * What a failed re-derivation says: the figures that differ — each field's path, the file's value and the value
 * re-derived from the rows — and, when every value agrees, the first byte that does not.
 *
 * @module
 */

import { decodeStrictUtf8 } from "../base/mod.ts";
import { jsonObjectOf } from "../py/mod.ts";
import { firstByteDifference } from "./checks.ts";

/** One field whose value in the file is not the one re-derived. */
export interface FigureDifference {
  /** The field, e.g. `suites.official.mcnemar.only_second_correct` or `groups[longmemeval/access_help/confidence].correct`. */
  field: string;
  /** The file's value, as JSON. */
  file: string;
  /** The re-derived value, as JSON. */
  derived: string;
}

// The fields that name an element of a list of groups, in the order a label joins them.
const IDENTITY_KEYS = ["source", "scenario", "policy", "capacity"];

/** An element of a list by what it is (`longmemeval/access_help/confidence`), else by its index. */
function elementLabel(item: unknown, index: number): string {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return String(index);
  const record = item as Record<string, unknown>;
  const parts = IDENTITY_KEYS.filter((key) => key in record).map((key) => String(record[key]));
  return parts.length > 0 ? parts.join("/") : String(index);
}

/** A value as a message shows it: JSON, with -0 as the -0.0 a file would hold. */
function shown(value: unknown): string {
  return Object.is(value, -0) ? "-0.0" : value === undefined ? "(absent)" : JSON.stringify(value);
}

/**
 * Every field where `file` and `derived` (parsed JSON values) differ, depth first in the file's key order.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { figureDifferences } from "./figures.ts";
 * const file = { groups: [{ policy: "confidence", scenario: "a", correct: 24 }] };
 * const rows = { groups: [{ policy: "confidence", scenario: "a", correct: 23 }] };
 * deepStrictEqual(figureDifferences(file, rows), [{ field: "groups[a/confidence].correct", file: "24", derived: "23" }]);
 * ```
 */
export function figureDifferences(file: unknown, derived: unknown, path = ""): FigureDifference[] {
  const here = (field: string) => path === "" ? field : `${path}.${field}`;
  if (Array.isArray(file) && Array.isArray(derived)) {
    const length = Math.max(file.length, derived.length);
    const out: FigureDifference[] = [];
    for (let index = 0; index < length; index++) {
      const label = elementLabel(file[index] ?? derived[index], index);
      const labelled = `${path}[${label}]`;
      if (index < file.length && index < derived.length && label !== elementLabel(derived[index], index)) {
        out.push({ field: labelled, file: label, derived: elementLabel(derived[index], index) });
      } else out.push(...figureDifferences(file[index], derived[index], labelled));
    }
    return out;
  }
  const isRecord = (value: unknown) => value !== null && typeof value === "object" && !Array.isArray(value);
  if (isRecord(file) && isRecord(derived)) {
    const a = file as Record<string, unknown>;
    const b = derived as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((key) => figureDifferences(a[key], b[key], here(key)));
  }
  if (Object.is(file, derived)) return [];
  return [{ field: path === "" ? "(the whole value)" : path, file: shown(file), derived: shown(derived) }];
}

/**
 * Why a file is not the bytes re-derived from its rows, or `undefined` when it is: the differing figures (the
 * first three, and how many in all), e.g. `suites.official.mcnemar.only_second_correct: file 14, rows 13`; when
 * every value agrees (a BOM, spacing, a number's form) or the file is not JSON, the first differing byte.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { figureDetail } from "./figures.ts";
 * const utf8 = (text: string) => new TextEncoder().encode(text);
 * strictEqual(figureDetail(utf8('{"a": {"b": 24}}\n'), '{"a": {"b": 23}}\n'), "a.b: file 24, rows 23");
 * strictEqual(figureDetail(utf8('{"a":{"b":23}}\n'), '{"a": {"b": 23}}\n'), "first difference at byte 5"); // values agree
 * strictEqual(figureDetail(utf8('{"a": 1}\n'), '{"a": 1}\n'), undefined);
 * ```
 */
export function figureDetail(bytes: Uint8Array, derived: string, from = "rows"): string | undefined {
  const at = firstByteDifference(bytes, new TextEncoder().encode(derived));
  if (at === undefined) return undefined;
  let published: Record<string, unknown> | undefined;
  try {
    published = jsonObjectOf(decodeStrictUtf8(bytes));
  } catch {
    published = undefined; // not UTF-8
  }
  const expected = jsonObjectOf(derived);
  // Not JSON: the bytes are all there is to name.
  const differences = published && expected ? figureDifferences(published, expected) : [];
  if (differences.length === 0) return `first difference at byte ${at}`;
  const shownDifferences = differences.slice(0, 3).map((item) =>
    `${item.field}: file ${item.file}, ${from} ${item.derived}`
  );
  const more = differences.length > 3 ? `; … (${differences.length} figures differ)` : "";
  return shownDifferences.join("; ") + more;
}
