/**
 * `deno task schemas`: writes the JSON Schemas of `report --json` and `verify --json` from the zod schemas
 * (lib/report/render/json_schema.ts) into `schemas/`.
 *
 * @module
 */

import { shippedSchemas } from "../lib/report/render/json_schema.ts";

const root = new URL("../", import.meta.url);
for (const { path, text } of shippedSchemas()) {
  await Deno.writeTextFile(new URL(path, root), text);
  console.log(`wrote ${path}`);
}
