/**
 * The JSON Schemas of `report --json` and `verify --json`, generated from the zod schemas the program parses
 * them with (zod 4's JSON Schema output): shipped as `schemas/report.schema.json` and
 * `schemas/verify.schema.json` (`deno task schemas` writes them; a test fails when a shipped file drifts).
 *
 * @module
 */

import * as z from "../../base/zod.ts";
import { VerifyJson } from "../../verify/mod.ts";
import { ReportJson } from "./json.ts";

/** A shipped schema: where it lives in the repository and its text. */
export interface ShippedSchema {
  path: string;
  text: string;
}

function schemaText(title: string, description: string, schema: z.ZodMiniType): string {
  const { $schema, ...rest } = z.toJSONSchema(schema);
  return `${JSON.stringify({ $schema, title, description, ...rest }, null, 2)}\n`;
}

/**
 * Both shipped schemas, as their files hold them.
 *
 * @example
 * ```ts
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * import { shippedSchemas } from "./json_schema.ts";
 * const [report, verify] = shippedSchemas();
 * deepStrictEqual([report.path, verify.path], ["schemas/report.schema.json", "schemas/verify.schema.json"]);
 * strictEqual(JSON.parse(report.text).$schema, "https://json-schema.org/draft/2020-12/schema");
 * ```
 */
export function shippedSchemas(): ShippedSchema[] {
  return [
    {
      path: "schemas/report.schema.json",
      text: schemaText(
        "deermem-eval report --json",
        "One run's report: a QA run (kind qa), a policy run (kind policy) or a sweep (kind sweep); " +
          "several candidate runs in one table (kind many-candidates).",
        ReportJson,
      ),
    },
    {
      path: "schemas/verify.schema.json",
      text: schemaText(
        "deermem-eval verify --json",
        "One run's checks and verdict: a QA run (kind qa), a policy run (kind policy) or a sweep (kind sweep).",
        VerifyJson,
      ),
    },
  ];
}
