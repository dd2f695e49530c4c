/**
 * Python's `json.loads`: the values it reads, Python-typed (floats stay {@linkcode PyFloat}s, integers of any
 * size are exact, dict key order is kept where JavaScript's would differ), and what it refuses, with its message
 * and position.
 *
 * @module
 */

import { BOM, decodeStrictUtf8, startsWithBom } from "../base/mod.ts";
import { PyFloat } from "./float.ts";
import type { PyJson } from "./json_dumps.ts";

/**
 * Marks a parsed object whose key order JavaScript would not keep: JS enumerates integer-like keys (`"1"`) first,
 * Python's dict keeps the document's order, which `str()`/`repr()` print. Set only on such objects, as a
 * non-enumerable property holding the keys in document order.
 */
export const PY_KEY_ORDER: unique symbol = Symbol("pyKeyOrder");

/** Python 3.11's default `sys.get_int_max_str_digits()`: `int()` of a longer decimal string raises. */
export const PY_INT_MAX_STR_DIGITS = 4300;

/** The bounds a parse is held to before it allocates: nesting depth, and containers plus the items they separate. */
export interface JsonLimits {
  /** The deepest nesting of arrays and objects. */
  depth: number;
  /** The most values, counted as the arrays, objects and commas outside strings (about one per value). */
  values: number;
}

/**
 * A document's bounds: 900 levels (Python's `json` raises `RecursionError` past about 990, so none it reads is
 * refused) and 2^20 values (a few hundred in a row file or a manifest; some 100 MB as JavaScript values).
 */
export const JSON_LIMITS: JsonLimits = { depth: 900, values: 1 << 20 };

/**
 * Checks a document against `limits` in one pass that allocates nothing (strings skipped, their escapes heeded),
 * before any parse holds its values; text that is not JSON passes through to the parser, which names its error.
 *
 * @throws {SyntaxError} Naming the limit and where it was passed (the character or, for bytes, the byte offset).
 *
 * @example
 * ```ts
 * import { throws } from "node:assert/strict";
 * import { checkJsonLimits } from "./json_parse.ts";
 * checkJsonLimits("[[1, 2], {\"a\": [3]}]", { depth: 3, values: 6 });
 * throws(() => checkJsonLimits("[[[1]]]", { depth: 2, values: 6 }), /nested more than 2 levels deep/);
 * throws(() => checkJsonLimits("[1, 2, 3]", { depth: 2, values: 2 }), /more than 2 values/);
 * ```
 */
export function checkJsonLimits(source: string | Uint8Array, limits: JsonLimits): void {
  const length = source.length;
  // Each level and each value takes at least one character: a shorter document is within both.
  if (length <= limits.depth && length <= limits.values) return;
  const text = typeof source === "string" ? source : undefined;
  const bytes = typeof source === "string" ? undefined : source;
  let depth = 0;
  let values = 0;
  for (let at = 0; at < length; at++) {
    const code = text !== undefined ? text.charCodeAt(at) : bytes![at];
    if (code === 0x22) {
      at = stringEnd(source, at);
      if (at < 0) return;
    } else if (code === 0x5b || code === 0x7b) {
      values++;
      if (++depth > limits.depth) {
        throw limitError(`nested more than ${limits.depth} levels deep`, source, at);
      }
    } else if (code === 0x5d || code === 0x7d) depth--;
    else if (code === 0x2c) values++;
    else continue;
    if (values > limits.values) {
      throw limitError(`more than ${limits.values} values, the limit of one document`, source, at);
    }
  }
}

/** The index of the quote closing the string opened at `start`, or -1 when it is not closed. */
function stringEnd(source: string | Uint8Array, start: number): number {
  let at = start;
  for (;;) {
    let backslashes = 0;
    if (typeof source === "string") {
      at = source.indexOf('"', at + 1);
      while (at > 0 && source.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++;
    } else {
      at = source.indexOf(0x22, at + 1);
      while (at > 0 && source[at - 1 - backslashes] === 0x5c) backslashes++;
    }
    if (at < 0 || backslashes % 2 === 0) return at;
  }
}

function limitError(message: string, source: string | Uint8Array, at: number): SyntaxError {
  if (typeof source !== "string") return new SyntaxError(`${message}: at byte offset ${at}`);
  const before = source.slice(0, at);
  const line = (before.match(/\n/g)?.length ?? 0) + 1;
  return new SyntaxError(`${message}: line ${line} column ${at - before.lastIndexOf("\n")} (char ${at})`);
}

/** A key JavaScript moves to the front of an object (a canonical array index). */
const ARRAY_INDEX_KEY = /^(?:0|[1-9][0-9]{0,9})$/;
/** A key of digits only, some perhaps escaped (`"\u0031"`): where the engine's parser would reorder keys. */
const INTEGER_LIKE_KEY_IN_TEXT = /"(?:[0-9]|\\u003[0-9]){1,10}"\s*:/;

/**
 * The reference's rule for a leading byte-order mark in JSON text, in one place: `json.loads` of a `str` (and so
 * `json.load` of a file opened as UTF-8) refuses it. Returns Python's message for text that begins with one,
 * `undefined` otherwise; a caller that reads JSON its own way reports it as `not valid JSON: <message>`.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { jsonBomRefusal } from "./json_parse.ts";
 * strictEqual(jsonBomRefusal("\ufeff{}"), "Unexpected UTF-8 BOM (decode using utf-8-sig)");
 * strictEqual(jsonBomRefusal("{}"), undefined);
 * strictEqual(jsonBomRefusal("[\"\ufeff\"]"), undefined); // U+FEFF inside is text
 * ```
 */
export function jsonBomRefusal(text: string): string | undefined {
  return startsWithBom(text) ? "Unexpected UTF-8 BOM (decode using utf-8-sig)" : undefined;
}

/**
 * Parses JSON exactly as Python's `json.loads` does: `NaN`, `Infinity` and `-Infinity` are read; a number with a
 * fraction or exponent is a {@linkcode PyFloat} (`1e400` is infinity); an integer is a `number` when it fits
 * exactly and a `bigint` otherwise; duplicate keys keep the last value; an object whose key order JavaScript would
 * change carries {@linkcode PY_KEY_ORDER}.
 *
 * @param text The JSON text.
 * @param limits Its bounds, checked before anything is parsed (default {@linkcode JSON_LIMITS}).
 * @returns The value, Python-typed.
 * @throws {SyntaxError} With line and column, as Python's message gives them: for anything `json.loads`
 * refuses (a leading UTF-8 BOM included), an integer over 4,300 digits (Python 3.11 raises), and a lone
 * surrogate escape (Python reads it, then cannot write it as UTF-8); past a limit, naming it.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { dumps } from "./json_dumps.ts";
 * import { parsePyJson } from "./json_parse.ts";
 * strictEqual(dumps(parsePyJson('{"a": 1.0, "b": 2, "c": NaN}')), '{"a": 1.0, "b": 2, "c": NaN}');
 * strictEqual(parsePyJson("12345678901234567890"), 12345678901234567890n);
 * throws(() => parsePyJson("[1,]"), SyntaxError);
 * ```
 */
export function parsePyJson(text: string, limits: JsonLimits = JSON_LIMITS): PyJson {
  const bom = jsonBomRefusal(text);
  if (bom !== undefined) throw new SyntaxError(bom);
  checkJsonLimits(text, limits);
  // The engine's parser is exact for everything else; it throws on NaN/Infinity, so those take the full parser.
  if (!INTEGER_LIKE_KEY_IN_TEXT.test(text)) {
    let value: PyJson;
    try {
      value = JSON.parse(text, reviveNumbers as (key: string, value: unknown) => unknown) as PyJson;
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      return new PyJsonParser(text).parseDocument();
    }
    return value;
  }
  return new PyJsonParser(text).parseDocument();
}

/**
 * Python's `json.loads` of bytes: strict UTF-8, a leading byte-order mark skipped (its `detect_encoding` reads
 * one as `utf-8-sig`), then {@linkcode parsePyJson}. Invalid UTF-8 throws the decoder's `TypeError`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, throws } from "node:assert/strict";
 * import { parsePyJson, parsePyJsonBytes } from "./json_parse.ts";
 * const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("[1]")]);
 * deepStrictEqual(parsePyJsonBytes(bytes), [1]); // json.loads(bytes) skips the BOM
 * throws(() => parsePyJson("\ufeff[1]"), SyntaxError); // json.loads(text) refuses it
 * ```
 */
export function parsePyJsonBytes(bytes: Uint8Array, limits: JsonLimits = JSON_LIMITS): PyJson {
  const text = decodeStrictUtf8(bytes);
  return parsePyJson(startsWithBom(text) ? text.slice(BOM.length) : text, limits);
}

/** The fast path's reviver; a SyntaxError here sends the text to the full parser, which names the place. */
function reviveNumbers(key: string, value: unknown, context?: { source?: string }): unknown {
  if (!key.isWellFormed()) throw new SyntaxError("lone surrogate");
  if (typeof value === "string") {
    if (!value.isWellFormed()) throw new SyntaxError("lone surrogate");
    return value;
  }
  if (typeof value !== "number" || context?.source === undefined) return value;
  return numberFromSource(context.source, () => new SyntaxError("integer too long"));
}

function numberFromSource(source: string, tooLong: () => SyntaxError): number | bigint | PyFloat {
  if (/[.eE]/.test(source)) return new PyFloat(Number(source));
  const value = Number(source);
  if (Number.isSafeInteger(value)) return value;
  if (source.length - (source.startsWith("-") ? 1 : 0) > PY_INT_MAX_STR_DIGITS) throw tooLong();
  return BigInt(source);
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** Python's `json` scanner, ported: errors say what was expected, with line and column. */
class PyJsonParser {
  #pos = 0;
  constructor(readonly text: string) {}

  parseDocument(): PyJson {
    this.#skipSpace();
    const value = this.#value();
    this.#skipSpace();
    if (this.#pos < this.text.length) throw this.#error("Extra data");
    return value;
  }

  #error(message: string, at = this.#pos): SyntaxError {
    const before = this.text.slice(0, at);
    const line = (before.match(/\n/g)?.length ?? 0) + 1;
    const column = at - before.lastIndexOf("\n");
    return new SyntaxError(`${message}: line ${line} column ${column} (char ${at})`);
  }

  #skipSpace(): void {
    const text = this.text;
    let pos = this.#pos;
    for (;;) {
      const code = text.charCodeAt(pos);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) pos++;
      else break;
    }
    this.#pos = pos;
  }

  #value(): PyJson {
    const text = this.text;
    const char = text[this.#pos];
    if (char === '"') return this.#string();
    if (char === "{") return this.#object();
    if (char === "[") return this.#array();
    for (const [word, value] of LITERALS) {
      if (text.startsWith(word, this.#pos)) {
        this.#pos += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.#pos;
    const match = NUMBER.exec(text);
    if (match === null) throw this.#error("Expecting value");
    const start = this.#pos;
    this.#pos += match[0].length;
    return numberFromSource(
      match[0],
      () =>
        this.#error(
          `Exceeds the limit (${PY_INT_MAX_STR_DIGITS} digits) for integer string conversion`,
          start,
        ),
    );
  }

  #string(): string {
    const text = this.text;
    const start = this.#pos;
    let pos = this.#pos + 1;
    let out = "";
    for (;;) {
      let end = pos;
      while (end < text.length) {
        const code = text.charCodeAt(end);
        if (code === 0x22 || code === 0x5c || code < 0x20) break;
        end++;
      }
      out += text.slice(pos, end);
      if (end >= text.length) throw this.#error("Unterminated string starting at", start);
      const code = text.charCodeAt(end);
      if (code === 0x22) {
        if (!out.isWellFormed()) throw this.#error("lone surrogate in the string starting at", start);
        this.#pos = end + 1;
        break;
      }
      if (code < 0x20) throw this.#error("Invalid control character at", end);
      const escape = text[end + 1];
      if (escape === undefined) throw this.#error("Unterminated string starting at", start);
      if (escape !== "u") {
        const replacement = ESCAPES[escape];
        if (replacement === undefined) throw this.#error("Invalid \\escape", end);
        out += replacement;
        pos = end + 2;
        continue;
      }
      const unit = this.#hex4(end);
      pos = end + 6;
      if (unit >= 0xd800 && unit <= 0xdbff && text.startsWith("\\u", pos)) {
        const low = this.#hex4(pos);
        if (low >= 0xdc00 && low <= 0xdfff) {
          out += String.fromCharCode(unit, low);
          pos += 6;
          continue;
        }
      }
      if (unit >= 0xd800 && unit <= 0xdfff) {
        throw this.#error(
          `lone surrogate \\u${unit.toString(16)}: refused, as no UTF-8 output can hold it`,
          end,
        );
      }
      out += String.fromCharCode(unit);
    }
    return out;
  }

  #hex4(at: number): number {
    const digits = this.text.slice(at + 2, at + 6);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw this.#error("Invalid \\uXXXX escape", at + 1);
    return parseInt(digits, 16);
  }

  #object(): PyJson {
    this.#pos++;
    const record: Record<string, PyJson> = {};
    const keys: string[] = [];
    let reordered = false;
    this.#skipSpace();
    if (this.text[this.#pos] === "}") {
      this.#pos++;
      return record;
    }
    for (;;) {
      if (this.text[this.#pos] !== '"') {
        throw this.#error("Expecting property name enclosed in double quotes", this.#pos);
      }
      const key = this.#string();
      this.#skipSpace();
      if (this.text[this.#pos] !== ":") throw this.#error("Expecting ':' delimiter");
      this.#pos++;
      this.#skipSpace();
      const value = this.#value();
      if (!Object.hasOwn(record, key)) {
        keys.push(key);
        if (ARRAY_INDEX_KEY.test(key)) reordered = true;
      }
      // A "__proto__" key must become an own property, as in JSON.parse.
      Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
      this.#skipSpace();
      const next = this.text[this.#pos];
      if (next === "}") {
        this.#pos++;
        break;
      }
      if (next !== ",") throw this.#error("Expecting ',' delimiter");
      this.#pos++;
      this.#skipSpace();
    }
    if (reordered && keys.length > 1) {
      Object.defineProperty(record, PY_KEY_ORDER, { value: keys, enumerable: false });
    }
    return record;
  }

  #array(): PyJson {
    this.#pos++;
    const items: PyJson[] = [];
    this.#skipSpace();
    if (this.text[this.#pos] === "]") {
      this.#pos++;
      return items;
    }
    for (;;) {
      items.push(this.#value());
      this.#skipSpace();
      const next = this.text[this.#pos];
      if (next === "]") {
        this.#pos++;
        return items;
      }
      if (next !== ",") throw this.#error("Expecting ',' delimiter");
      this.#pos++;
      this.#skipSpace();
    }
  }
}

const LITERALS: readonly [string, PyJson][] = [
  ["null", null],
  ["true", true],
  ["false", false],
  ["NaN", new PyFloat(NaN)],
  ["Infinity", new PyFloat(Infinity)],
  ["-Infinity", new PyFloat(-Infinity)],
];
