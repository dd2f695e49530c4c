/** The shipped JSON Schemas are the zod schemas' own output, and they say what the zod schemas say. */
import { shippedSchemas } from "../../../lib/report/render/json_schema.ts";
import { ReportJson, reportJson } from "../../../lib/report/render/json.ts";
import { samplePolicyReport } from "../../../lib/report/run/samples.ts";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { ROOT } from "../../helpers/cli.ts";
import { validate } from "../../helpers/json_schema.ts";

Deno.test("schemas/report.schema.json and schemas/verify.schema.json are what deno task schemas generates", async () => {
  for (const { path, text } of shippedSchemas()) {
    const shipped = await Deno.readTextFile(`${ROOT}${path}`);
    assert(shipped === text, `${path} drifted from the zod schemas: run deno task schemas`);
  }
});

Deno.test("the shipped report schema and zod agree on a document, and both refuse a key neither names", async () => {
  const schema = JSON.parse(await Deno.readTextFile(`${ROOT}schemas/report.schema.json`));
  const document = JSON.parse(JSON.stringify(reportJson(samplePolicyReport())));
  assertEquals(validate(schema, document), []);
  assert(ReportJson.safeParse(document).success);
  const extra = { ...document, synthetic_notice: "x" };
  assertEquals(validate(schema, extra), ["$: matches 0 of oneOf, not exactly one"]);
  assert(!ReportJson.safeParse(extra).success);
  const negative = { ...document, retention: [{ ...document.retention[0], cases: -1 }] };
  assert(validate(schema, negative).length > 0);
  assert(!ReportJson.safeParse(negative).success);
});
