/**
 * A report's notices (SYNTHETIC, PARTIAL) are part of its document: the demo's `report --json` is the program's
 * own schema, and every format opens with the notice.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { runCli, withTempDir } from "../../helpers/cli.ts";
import { SYNTHETIC_NOTICE } from "../../../lib/protocol/mod.ts";
import { PolicyReportJson, QaReportJson } from "../../../lib/report/render/json.ts";

const STAND_IN_FLAGS = [
  "--no-prompt",
  "--allow-read",
  "--allow-write",
  "--allow-net=127.0.0.1",
  "--ignore-env",
];

Deno.test("the demo's report --json, of its QA run and its policy run, parses with the program's own schemas", async () => {
  await withTempDir(async (directory) => {
    const dir = `${directory}/demo`;
    const demo = await runCli(["demo", "--output-dir", dir], { flags: STAND_IN_FLAGS });
    assertEquals(demo.code, 0, demo.stderr);
    const qa = await runCli(["report", dir, "--json"]);
    assertEquals(qa.code, 0, qa.stderr);
    const parsed = QaReportJson.safeParse(JSON.parse(qa.stdout));
    assert(parsed.success, JSON.stringify(parsed.error?.issues));
    assertEquals(parsed.data.synthetic, SYNTHETIC_NOTICE);
    const policy = await runCli(["report", `${dir}/policy`, "--json", "--protocol", `${dir}/protocol`]);
    assertEquals(policy.code, 0, policy.stderr);
    const policyParsed = PolicyReportJson.safeParse(JSON.parse(policy.stdout));
    assert(policyParsed.success, JSON.stringify(policyParsed.error?.issues));
    assertEquals(policyParsed.data.synthetic, SYNTHETIC_NOTICE);
  });
});
