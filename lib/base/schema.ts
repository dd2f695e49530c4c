/**
 * Turns zod failures into one-line contract errors naming the file and the field path.
 *
 * @module
 */

import { ContractError, type DomainErrorOptions, type InputError } from "./errors.ts";
import { decodeStrictUtf8 } from "./utf8.ts";

/** Options of {@linkcode parseWith}. */
export interface ParseWithOptions {
  /** The error to throw (default {@linkcode ContractError}). */
  error?: new (message: string, options: DomainErrorOptions) => InputError;
  /** Put before the message, e.g. `line 3: `. */
  prefix?: string;
}

/** One failure a {@linkcode Schema} reports (zod's issue, as far as this package reads it). */
export interface SchemaIssue {
  /** The kind of failure, e.g. `unrecognized_keys`. */
  readonly code: string;
  /** Where in the input: keys and indexes from the root. */
  readonly path: readonly PropertyKey[];
  /** What is wrong, e.g. `must be 64 lowercase hex digits`. */
  readonly message: string;
  /** The unknown keys, for `unrecognized_keys`. */
  readonly keys?: readonly string[];
}

/** The outcome of {@linkcode Schema.safeParse}. */
export type SchemaResult<T> =
  | { readonly success: true; readonly data: T }
  | { readonly success: false; readonly error: { readonly issues: readonly SchemaIssue[] } };

/**
 * A schema parsing unknown input into `T`: the public face of this package's zod schemas (each is a zod/mini
 * `ZodMiniType<T>`, so zod's functions take it too), stated without zod's types so the API does not hang on them.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import * as z from "zod/mini";
 * import type { Schema } from "./schema.ts";
 * const Port: Schema<number> = z.number().check(z.int(), z.minimum(1));
 * strictEqual(Port.safeParse(0).success, false); // 0 is not a port
 * strictEqual(Port.parse(8080), 8080);
 * ```
 */
export interface Schema<T> {
  /**
   * Parses `data`.
   *
   * @param data The input.
   * @returns The parsed value.
   * @throws {Error} zod's error when `data` does not match.
   */
  parse(data: unknown): T;
  /**
   * Parses `data` without throwing.
   *
   * @param data The input.
   * @returns The parsed value, or the issues.
   */
  safeParse(data: unknown): SchemaResult<T>;
}

/**
 * Parses `data` with `schema`; on failure throws a {@linkcode ContractError} (or `options.error`) for the first
 * issue, e.g. `configs/x.yaml: pool.qa_capacity: must be one of pool.capacities`.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import * as z from "zod/mini";
 * import { parseWith } from "./schema.ts";
 * const value = parseWith(z.strictObject({ a: z.number() }), { a: 1 }, "x.json");
 * deepStrictEqual(value.a, 1);
 * ```
 */
export function parseWith<T>(
  schema: Schema<T>,
  data: unknown,
  path: string,
  options: ParseWithOptions = {},
): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.length === 0 ? "(root)" : issue.path.map(String).join(".");
  let message = issue.message;
  if (issue.code === "unrecognized_keys") message = `unknown key(s): ${(issue.keys ?? []).join(", ")}`;
  const ErrorType = options.error ?? ContractError;
  throw new ErrorType(`${options.prefix ?? ""}${message}`, { path, field, cause: result.error });
}

/** One parsed line of a JSON Lines file, with its 1-based line number. */
export interface JsonLine<T> {
  /** The line's value, checked against the schema. */
  value: T;
  /** Its line number in the file (from 1). */
  line: number;
}

/**
 * Parses JSON Lines text against `schema`: blank lines are skipped; a line that is not JSON, or not of the
 * schema, throws `options.error` naming the file, the line and (for the schema) the field. Given the file's
 * bytes, it decodes one line at a time (strict UTF-8), so the whole text is never held beside its values.
 *
 * @param text The file's text, or its bytes.
 * @param path The file, for messages.
 * @param schema Each line's schema.
 * @param options The error to throw (default {@linkcode ContractError}).
 * @returns Each non-blank line's value and line number, in order.
 * @throws {InputError} The first line that is not valid JSON or fails the schema.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, throws } from "node:assert/strict";
 * import * as z from "zod/mini";
 * import { ContractError } from "./errors.ts";
 * import { parseJsonLines } from "./schema.ts";
 * const rows = parseJsonLines('{"a": 1}\n\n{"a": 2}\n', "x.jsonl", z.strictObject({ a: z.number() }));
 * deepStrictEqual(rows, [{ value: { a: 1 }, line: 1 }, { value: { a: 2 }, line: 3 }]);
 * throws(() => parseJsonLines("{\n", "x.jsonl", z.object({})), ContractError);
 * ```
 */
export function parseJsonLines<T>(
  text: string | Uint8Array,
  path: string,
  schema: Schema<T>,
  options: Pick<ParseWithOptions, "error"> = {},
): JsonLine<T>[] {
  const ErrorType = options.error ?? ContractError;
  const rows: JsonLine<T>[] = [];
  const lines = typeof text === "string" ? text.split("\n") : byteLines(text, path, ErrorType);
  let index = -1;
  for (const source of lines) {
    index++;
    if (source.trim() === "") continue;
    let data: unknown;
    try {
      data = JSON.parse(source);
    } catch (error) {
      throw new ErrorType(`line ${index + 1}: not valid JSON`, { path, cause: error });
    }
    rows.push({
      value: parseWith(schema, data, path, { ...options, prefix: `line ${index + 1}: ` }),
      line: index + 1,
    });
  }
  return rows;
}

/** The lines of UTF-8 bytes (split at each \n, as text would be), each decoded strictly when it is reached. */
function* byteLines(
  bytes: Uint8Array,
  path: string,
  ErrorType: NonNullable<ParseWithOptions["error"]>,
): Generator<string> {
  let start = 0;
  for (let line = 1;; line++) {
    const end = bytes.indexOf(0x0a, start);
    const piece = bytes.subarray(start, end < 0 ? bytes.length : end);
    try {
      yield decodeStrictUtf8(piece);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      throw new ErrorType(`line ${line}: not valid UTF-8`, { path, cause: error });
    }
    if (end < 0) return;
    start = end + 1;
  }
}

/**
 * `true` when `A` and `B` are the same type (optional and readonly members included), else `false`: binds a
 * hand-written type to its schema's inferred type, e.g. `const _same: SameType<T, z.infer<typeof s>> = true;`.
 */
export type SameType<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;
