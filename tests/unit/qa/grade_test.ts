import { GRADER_VERSION } from "../../../lib/qa/grade/grading.ts";
import { foreignResponseFiles } from "../../../lib/commands/grade_qa.ts";
import { gradedRow } from "../../../lib/qa/grade/graded_rows.ts";
import { answerRow } from "../../../lib/qa/run/answer_rows.ts";
import type { AnswerTask } from "../../../lib/qa/run/tasks.ts";
import { assertEquals } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";

// grade-qa end to end (the reference's bytes, trust checks) is in qa_cli_test.ts and trust_qa_test.ts.

const TASK: AnswerTask = {
  rowId: "q1__hybrid-v1",
  caseId: "q1",
  source: "longmemeval",
  scenario: "access_help",
  questionType: "single-session-user",
  policy: "hybrid-v1",
  capacity: 7,
  keptFactIds: ["f1", "f2"],
  supportAllRetained: true,
  supportRecall: 1,
  messages: [],
  requestFingerprint: "a".repeat(64),
  referenceAnswer: "seven weeks",
};

Deno.test("gradedRow takes identity and support from the task, the prediction and usage from the row", () => {
  const row = answerRow(
    { ...TASK, supportAllRetained: false, supportRecall: 0 },
    { prediction: "Seven weeks.", responseModel: "m", usage: { total_tokens: 9 } },
    2,
    "2026-11-29T11:12:02.090405Z",
  );
  const graded = gradedRow(TASK, { ...row, case_id: "other", kept_fact_ids: [] });
  assertEquals(graded.case_id, "q1");
  assertEquals(graded.kept_fact_ids, ["f1", "f2"]);
  assertEquals([graded.support_all_retained, graded.support_recall], [true, 1]);
  assertEquals([graded.prediction, graded.response_model, graded.usage, graded.attempts], [
    "Seven weeks.",
    "m",
    {
      total_tokens: 9,
    },
    2,
  ]);
  assertEquals([graded.grade_correct, graded.grader_version], [true, GRADER_VERSION]);
  assertEquals("created_at" in graded, false);
  assertEquals(gradedRow(TASK, { ...row, prediction: "six weeks" }).grade_correct, false);
});

Deno.test("foreignResponseFiles names what is not a task's row file, sparing superseded/", async () => {
  await withTempDir(async (directory) => {
    assertEquals(await foreignResponseFiles(directory, [TASK]), []); // no responses/ yet
    await Deno.mkdir(`${directory}/responses/superseded`, { recursive: true });
    for (const name of ["q1__hybrid-v1.json", "q1__confidence.json", "notes.txt"]) {
      await Deno.writeTextFile(`${directory}/responses/${name}`, "{}");
    }
    assertEquals((await foreignResponseFiles(directory, [TASK])).sort(), [
      "notes.txt",
      "q1__confidence.json",
    ]);
  });
});
