/**
 * Turns zod failures into one-line contract errors naming the file and the field path.
 *
 * @module
 */

import type { z } from "zod";
import { ContractError, type DomainErrorOptions, type InputError } from "./errors.ts";

/** Options of {@linkcode parseWith}. */
export interface ParseWithOptions {
  /** The error to throw (default {@linkcode ContractError}). */
  error?: new (message: string, options: DomainErrorOptions) => InputError;
  /** Put before the message, e.g. `line 3: `. */
  prefix?: string;
}

/**
 * Parses `data` with `schema`; on failure throws a {@linkcode ContractError} (or `options.error`) for the first
 * issue, e.g. `configs/x.yaml: pool.qa_capacity: must be one of pool.capacities`.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { parseWith } from "./schema.ts";
 * const value = parseWith(z.strictObject({ a: z.number() }), { a: 1 }, "x.json");
 * console.log(value.a); // 1
 * ```
 */
export function parseWith<S extends z.ZodType>(
  schema: S,
  data: unknown,
  path: string,
  options: ParseWithOptions = {},
): z.infer<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.length === 0 ? "(root)" : issue.path.map(String).join(".");
  let message = issue.message;
  if (issue.code === "unrecognized_keys") message = `unknown key(s): ${issue.keys.join(", ")}`;
  const ErrorType = options.error ?? ContractError;
  throw new ErrorType(`${options.prefix ?? ""}${message}`, { path, field, cause: result.error });
}

/**
 * `true` when `A` and `B` are the same type (optional and readonly members included), else `false`: binds a
 * hand-written type to its schema's inferred type, e.g. `const _same: SameType<T, z.infer<typeof s>> = true;`.
 */
export type SameType<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;
