/**
 * A small JSON Schema (2020-12) validator, independent of zod, for the keywords the shipped schemas use: `type`,
 * `properties`, `required`, `additionalProperties`, `propertyNames`, `items`, `prefixItems`, `minItems`,
 * `maxItems`, `enum`, `const`, `anyOf`, `oneOf`, `minimum`, `maximum`. A keyword it does not know is an error,
 * so a schema it cannot fully check is never passed.
 */

import { ReportJson } from "../../lib/report/render/json.ts";
import { VerifyJson } from "../../lib/verify/verify_json.ts";

// deno-lint-ignore no-explicit-any
type Schema = Record<string, any>;

const ANNOTATIONS = new Set(["$schema", "title", "description"]);
const KNOWN = new Set([
  ...ANNOTATIONS,
  "type",
  "properties",
  "required",
  "additionalProperties",
  "propertyNames",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "minimum",
  "maximum",
]);

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeMatches(type: string, value: unknown): boolean {
  const actual = typeOf(value);
  return actual === type || (type === "number" && actual === "integer");
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The errors of `value` against `schema` (empty when it is valid), each with its JSON path. */
export function validate(schema: Schema, value: unknown, path = "$"): string[] {
  const unknown = Object.keys(schema).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) return [`${path}: schema keyword(s) not checked: ${unknown.join(", ")}`];
  const errors: string[] = [];
  if (schema.type !== undefined) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => typeMatches(type, value))) {
      return [`${path}: expected ${types.join(" or ")}, got ${typeOf(value)}`];
    }
  }
  if (schema.const !== undefined && !deepEqual(schema.const, value)) errors.push(`${path}: not the constant`);
  if (schema.enum !== undefined && !schema.enum.some((item: unknown) => deepEqual(item, value))) {
    errors.push(`${path}: ${JSON.stringify(value)} not in the enum`);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${path}: below the minimum`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${path}: above the maximum`);
  }
  if (schema.anyOf !== undefined) {
    const passing = schema.anyOf.filter((option: Schema) => validate(option, value, path).length === 0);
    if (passing.length === 0) errors.push(`${path}: matches none of anyOf`);
  }
  if (schema.oneOf !== undefined) {
    const passing = schema.oneOf.filter((option: Schema) => validate(option, value, path).length === 0);
    if (passing.length !== 1) errors.push(`${path}: matches ${passing.length} of oneOf, not exactly one`);
  }
  if (Array.isArray(value)) errors.push(...arrayErrors(schema, value, path));
  else if (typeOf(value) === "object") {
    errors.push(...objectErrors(schema, value as Record<string, unknown>, path));
  }
  return errors;
}

function arrayErrors(schema: Schema, value: unknown[], path: string): string[] {
  const errors: string[] = [];
  if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(`${path}: too few items`);
  if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(`${path}: too many items`);
  const prefix: Schema[] = schema.prefixItems ?? [];
  value.forEach((item, index) => {
    const itemSchema = index < prefix.length ? prefix[index] : schema.items;
    if (itemSchema === false) errors.push(`${path}[${index}]: no item allowed here`);
    else if (itemSchema !== undefined) errors.push(...validate(itemSchema, item, `${path}[${index}]`));
  });
  return errors;
}

function objectErrors(schema: Schema, value: Record<string, unknown>, path: string): string[] {
  const errors: string[] = [];
  const properties: Record<string, Schema> = schema.properties ?? {};
  for (const key of schema.required ?? []) if (!(key in value)) errors.push(`${path}: missing ${key}`);
  for (const [key, item] of Object.entries(value)) {
    if (schema.propertyNames !== undefined) {
      errors.push(...validate(schema.propertyNames, key, `${path}.${key}`));
    }
    if (key in properties) errors.push(...validate(properties[key], item, `${path}.${key}`));
    else if (schema.additionalProperties === false) errors.push(`${path}: unexpected key ${key}`);
    else if (typeof schema.additionalProperties === "object") {
      errors.push(...validate(schema.additionalProperties, item, `${path}.${key}`));
    }
  }
  return errors;
}

const SHIPPED = {
  report: new URL("../../schemas/report.schema.json", import.meta.url),
  verify: new URL("../../schemas/verify.schema.json", import.meta.url),
};

/**
 * What is wrong with a `report --json` or `verify --json` document: the shipped schema's errors (checked by
 * {@linkcode validate}) and zod's own issues with the program's schema; empty when both accept it.
 */
export function documentProblems(which: "report" | "verify", document: unknown): string[] {
  const schema = JSON.parse(Deno.readTextFileSync(SHIPPED[which]));
  const parsed = (which === "report" ? ReportJson : VerifyJson).safeParse(document);
  return [
    ...validate(schema, document).map((error) => `schemas/${which}.schema.json: ${error}`),
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `zod: ${JSON.stringify(issue)}`)),
  ];
}
