/**
 * The report is a typed document: the renderers draw its notices, its checks and its claim from fields, never
 * from each other's text.
 */
import { type Notice, reportHtml, reportJson, reportMarkdown, reportText } from "../../../lib/report/mod.ts";
import { claimOf } from "../../../lib/report/run/claim.ts";
import { samplePolicyReport } from "../../../lib/report/run/samples.ts";
import type { PolicyReport } from "../../../lib/report/run/run_report.ts";
import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { PolicyReportJson } from "../../../lib/report/render/json.ts";

const PARTIAL: Notice = {
  kind: "partial",
  line: "partial: 1 of 4 tasks; statistics on 0 complete pairs",
  partial: {
    line: "partial: 1 of 4 tasks; statistics on 0 complete pairs",
    tasks: 4,
    tasks_with_rows: 1,
    complete_pairs: 0,
    unpaired: ["a"],
    grading: "run/partial",
  },
};
const SYNTHETIC: Notice = { kind: "synthetic", line: "SYNTHETIC data <demo>", data: "SYNTHETIC data <demo>" };

/** A report whose check names and closing sentence read like other verdicts: only the fields decide. */
function misleading(): PolicyReport {
  const report = samplePolicyReport();
  return {
    ...report,
    verification: {
      checks: [
        { name: "✓ looks held but needs the dataset", verdict: "needs-dataset", detail: "needs --dataset" },
        { name: "– looks not run but held", verdict: "pass" },
      ],
      ok: true,
      proved: "nothing here needs --dataset; no qa_run.json",
      rederived: false,
      bound: true,
    },
  };
}

Deno.test("notices open every format in order, PARTIAL then SYNTHETIC, and are keys of the JSON document", () => {
  const report = samplePolicyReport();
  const notices = [PARTIAL, SYNTHETIC];
  assertEquals(reportText(report, undefined, notices).split("\n").slice(0, 3), [
    PARTIAL.line,
    SYNTHETIC.line,
    "deermem-eval report: run (policy run)",
  ]);
  assertEquals(
    reportMarkdown(report, notices).split("\n").slice(0, 5),
    [
      `> **${PARTIAL.line}**`,
      "",
      "> **SYNTHETIC data \\<demo\\>**",
      "",
      "# deermem-eval report: run (policy run)",
    ],
  );
  const html = reportHtml(report, notices);
  assertStringIncludes(html, "<title>PARTIAL — SYNTHETIC — deermem-eval report: run (policy run)</title>");
  assertStringIncludes(
    html,
    `<body>\n<p><strong>${PARTIAL.line}</strong></p>\n<p><strong>SYNTHETIC data &lt;demo&gt;</strong></p>\n<h1>`,
  );
  const document = PolicyReportJson.parse(JSON.parse(JSON.stringify(reportJson(report, notices))));
  assertEquals([document.partial?.tasks, document.synthetic], [4, SYNTHETIC.line]);
  // What --json prints opens with them, before its kind.
  assertEquals(Object.keys(reportJson(report, notices)).slice(0, 4), [
    "notices",
    "partial",
    "synthetic",
    "kind",
  ]);
  assertEquals(document.notices, [PARTIAL.line, SYNTHETIC.line]);
  // Without notices the document has neither key.
  assertEquals(Object.keys(reportJson(report)).includes("synthetic"), false);
});

Deno.test("the HTML's checks come from each check's status, not from how its line begins", () => {
  const html = reportHtml(misleading());
  assertStringIncludes(html, '<li class="not-run">✓ looks held but needs the dataset — needs --dataset</li>');
  assertStringIncludes(html, "<li>– looks not run but held</li>");
  assertStringIncludes(html, '<p class="proved">proved: nothing here needs --dataset; no qa_run.json</p>');
});

Deno.test("what the claim says was checked comes from the verification's fields, not its sentence", () => {
  const report = misleading();
  const recorded = claimOf(report).checked;
  assert(recorded.startsWith("The 2 recorded rows give this result"), recorded);
  const rederived = claimOf({ ...report, verification: { ...report.verification, rederived: true } }).checked;
  assert(rederived.startsWith("The 2 rows that give this result were re-derived with --dataset"), rederived);
});
