/** Reading a vector line's fields (a missing or mistyped one is a VectorFormatError) and describing inputs. */

import { VectorFormatError } from "./errors.ts";
import { hexToDouble } from "./float_bits.ts";

/** The field's value; a missing field is a {@linkcode VectorFormatError}. */
export function requireField(record: Record<string, unknown>, field: string): unknown {
  if (!Object.hasOwn(record, field)) throw new VectorFormatError(`missing field`, { field });
  return record[field];
}

/** The field's string value; a missing or non-string field is a {@linkcode VectorFormatError}. */
export function requireString(record: Record<string, unknown>, field: string): string {
  const value = requireField(record, field);
  if (typeof value !== "string") throw new VectorFormatError(`must be a string`, { field });
  return value;
}

/** The double a 16-hex-digit bit pattern spells; anything else is a {@linkcode VectorFormatError}. */
export function requireHexDouble(value: unknown, field: string): number {
  if (typeof value !== "string" || !/^[0-9a-f]{16}$/.test(value)) {
    throw new VectorFormatError(`must be a 16-hex-digit double`, { field });
  }
  return hexToDouble(value);
}

/** A value as JSON, cut to `limit` characters with an ellipsis. */
export function summarize(value: unknown, limit = 80): string {
  const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}
