/**
 * What crosses the sandbox's pipe: JSON lines, with the values JSON cannot hold (NaN, ±Infinity, -0, undefined)
 * tagged under the key "\u0000" (a forged tag only forges the module's own answer), so a decision reaches the
 * checks exactly as the policy returned it; and module text made printable.
 *
 * @module
 */

/**
 * `JSON.stringify` replacer tagging what JSON would lose; self-contained, since the sandbox runs its source.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { sandboxReplacer, sandboxReviver } from "./_sandbox_codec.ts";
 * const value = { a: [-0, NaN, 1.5, -Infinity], b: { c: Infinity } };
 * deepStrictEqual(JSON.parse(JSON.stringify(value, sandboxReplacer), sandboxReviver), value);
 * ```
 */
export function sandboxReplacer(_key: string, value: unknown): unknown {
  if (value === undefined) return { "\u0000": "undefined" };
  if (typeof value !== "number" || (Number.isFinite(value) && !Object.is(value, -0))) return value;
  return { "\u0000": Object.is(value, -0) ? "-0" : String(value) };
}

/** `JSON.parse` reviver undoing {@linkcode sandboxReplacer}; self-contained, as it. */
export function sandboxReviver(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const tagged = (value as Record<string, unknown>)["\u0000"];
  if (keys.length !== 1 || typeof tagged !== "string") return value;
  const table: Record<string, number | undefined> = {
    "undefined": undefined,
    "-0": -0,
    "NaN": NaN,
    "Infinity": Infinity,
    "-Infinity": -Infinity,
  };
  return Object.hasOwn(table, tagged) ? table[tagged] : value;
}

/**
 * Text from the module (an error message, a name) made safe to print on one line: every control, format,
 * surrogate, private or unassigned character as `\u{…}`, at most `max` characters.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { printable } from "./_sandbox_codec.ts";
 * strictEqual(printable("red\x1b[31m\nnext"), "red\\u{1b}[31m\\u{a}next");
 * ```
 */
export function printable(text: string, max = 300): string {
  const escaped = text.replace(/\p{C}/gu, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`);
  return escaped.length > max ? `${escaped.slice(0, max)}…` : escaped;
}
