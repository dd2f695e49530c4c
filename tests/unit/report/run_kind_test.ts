/** Run-kind detection. */
import { InputError } from "../../../lib/base/errors.ts";
import { assertEquals, assertRejects } from "../../helpers/assert.ts";
import { GOLDEN, withTempDir } from "../../helpers/cli.ts";
import { PUBLISHED } from "../../helpers/published.ts";
import { detectRunKind } from "../../../lib/report/run/run_kind.ts";

const FIXTURE_POLICY = `${GOLDEN}/fixture-run/policy`;

Deno.test("detectRunKind: QA results, a policy run, and neither", async () => {
  assertEquals(await detectRunKind(PUBLISHED), "qa");
  assertEquals(await detectRunKind(FIXTURE_POLICY), "policy");
  await withTempDir(async (directory) => {
    await assertRejects(() => detectRunKind(directory), InputError, "neither a QA results directory");
    await assertRejects(() => detectRunKind(`${directory}/absent`), InputError, "not found");
    await Deno.writeTextFile(`${directory}/file`, "x");
    await assertRejects(() => detectRunKind(`${directory}/file`), InputError, "is not a directory");
  });
});
