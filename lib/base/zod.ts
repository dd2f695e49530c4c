/**
 * zod/mini with zod's English messages: every schema module imports `z` from here (`import * as z from
 * "./zod.ts"`), so each issue reads as zod classic's (`Invalid input: expected string, received number`) while
 * the bundle carries only the parts of zod in use.
 *
 * @module
 */

import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

// A class instance or a bigint is named as the file holds it, never by an internal type name ("PyFloat").
function received(input: unknown): string | undefined {
  if (typeof input === "bigint") return "integer beyond 2^53";
  if (typeof input !== "object" || input === null || Array.isArray(input)) return undefined;
  if (Object.getPrototypeOf(input) === Object.prototype || Object.getPrototypeOf(input) === null) {
    return undefined;
  }
  // The one number-valued object parsed input holds is a Python float (lib/py's PyFloat).
  return typeof input.valueOf() === "number" ? "float" : "object";
}

// zod/mini loads no locale (its messages would read `Invalid input`); set before any schema module runs.
config({
  ...en(),
  customError: (issue) => {
    if (issue.code !== "invalid_type") return undefined;
    const what = received(issue.input);
    return what === undefined ? undefined : `Invalid input: expected ${issue.expected}, received ${what}`;
  },
});

export * from "zod/mini";
