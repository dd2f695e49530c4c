/** A case's two answers from a QA directory: graded there, or read from the row files and graded here. */
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { explainCase, explainText, readCaseAnswers } from "../../../lib/report/mod.ts";
import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET, fixtureContracts, REFERENCE_QA } from "../../helpers/fixture.ts";

const contracts = await fixtureContracts();
const prepared = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);

Deno.test("answers come from qa.rows.jsonl, or from the row files graded blindly — the same verdicts", async () => {
  const explanation = explainCase(prepared.cases, "19056a09", contracts.config);
  const graded = await readCaseAnswers(REFERENCE_QA, explanation, contracts.config);
  assertEquals(graded.confidence.from, "qa.rows.jsonl");
  assertEquals([graded.confidence.correct, graded.confidence.rule], [false, "overlap-reject"]);
  assertEquals([graded["hybrid-v1"].correct, graded["hybrid-v1"].rule], [true, "substring"]);
  assert(graded.confidence.matchesRecomputed && graded["hybrid-v1"].matchesRecomputed);
  await withTempDir(async (directory) => {
    await Deno.mkdir(`${directory}/responses`);
    for (const policy of ["confidence", "hybrid-v1"]) {
      const name = `19056a09__${policy}.json`;
      await Deno.copyFile(`${REFERENCE_QA}/responses/${name}`, `${directory}/responses/${name}`);
    }
    const fromRows = await readCaseAnswers(directory, explanation, contracts.config);
    assertEquals(fromRows.confidence.from, "responses/19056a09__confidence.json");
    for (const policy of ["confidence", "hybrid-v1"]) {
      assertEquals(
        [fromRows[policy].prediction, fromRows[policy].correct, fromRows[policy].rule],
        [graded[policy].prediction, graded[policy].correct, graded[policy].rule],
      );
    }
  });
  explanation.answers = graded;
  assertStringIncludes(explainText(explanation, { showText: false }), "answers at capacity 7:");
});
