/** The `report` stage's collection: a directory verify rejects is refused. */
import { buildReport, type Verification } from "../../../lib/report/mod.ts";
import { assertEquals, assertRejects } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";
import { contracts, copyDirectory, PUBLISHED, QA_FILES } from "../../helpers/published.ts";
import { NotVerifiedError } from "../../../lib/verify/mod.ts";

Deno.test("report refuses a directory verify rejects, and shows no numbers", async () => {
  await withTempDir(async (directory) => {
    await copyDirectory(PUBLISHED, directory, QA_FILES);
    const summary = await Deno.readTextFile(`${directory}/qa.summary.json`);
    await Deno.writeTextFile(
      `${directory}/qa.summary.json`,
      summary.replace('"correct": 9,', '"correct": 10,'),
    );
    const error: NotVerifiedError<Verification> = await assertRejects(
      () => buildReport(directory, contracts),
      NotVerifiedError,
    );
    assertEquals(error.verification.ok, false);
    const failed = error.verification.checks.filter((check) => check.verdict === "fail").map((check) =>
      check.name
    );
    assertEquals(failed, ["qa.summary.json: re-derived from the rows byte for byte"]);
  });
});
