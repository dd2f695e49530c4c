/**
 * A candidate run (`run-qa --policy-module recency.ts`, against each baseline) rendered in every format the
 * report writes — terminal text, `--markdown`, `--html`, `--json` — names its own pair everywhere: the
 * headline, the captions, the discordant credit, the charts and the tables carry the candidate and its
 * baseline with the recorded numbers; never "undefined", "NaN" or the policy the run did not answer.
 */

import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { completion, startAnswerServer } from "../../helpers/answer_server.ts";
import { fixtureProtocolFlags, ROOT, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET } from "../../helpers/fixture.ts";

const RECENCY = `${ROOT}tests/fixtures/policies/recency.ts`;
const MODULE = ["--policy-module", RECENCY];

function offline(args: string[]) {
  return runCli([...args, "--dataset", FIXTURE_DATASET, ...fixtureProtocolFlags(), ...MODULE], {
    flags: taskFlags("cli"),
  });
}

/** One report format's output with the text a reader sees (HTML tags dropped, entities decoded). */
function readable(html: string): string {
  return html.replace(/<style>[^]*?<\/style>/g, "").replace(/<\/?span[^>]*>/g, "").replace(/<[^>]+>/g, " ")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

for (const baseline of ["confidence", "hybrid-v1"] as const) {
  const unused = baseline === "confidence" ? "hybrid-v1" : "confidence";
  Deno.test(`a candidate run against ${baseline}: text, Markdown, HTML and JSON name recency and ${baseline}, with the recorded counts`, async () => {
    // Echoes the memory the policy kept: a kept support fact holds the answer, so the policies differ.
    const server = startAnswerServer((request) => {
      const messages = request.body.messages as { content: string }[];
      return completion(messages.at(-1)!.content);
    });
    try {
      await withTempDir(async (directory) => {
        const ran = await runCli(
          [
            "run-qa",
            "--dataset",
            FIXTURE_DATASET,
            "--output-dir",
            directory,
            ...fixtureProtocolFlags(),
            ...MODULE,
            "--baseline",
            baseline,
          ],
          {
            flags: taskFlags("run-qa"),
            env: {
              DEERMEM_EVAL_ANSWER_API_KEY: "sk-deermem-test-1",
              DEERMEM_EVAL_ANSWER_BASE_URL: server.url,
            },
          },
        );
        assertEquals(ran.code, 0, ran.stderr);
        const graded = await offline(["grade-qa", "--output-dir", directory]);
        assertEquals(graded.code, 0, graded.stderr);
        const stats = JSON.parse(await Deno.readTextFile(`${directory}/qa.stats.json`));
        assertEquals(stats.policies, [baseline, "recency"]);
        const overall = stats.suites.overall.mcnemar;
        const cases: number = stats.suites.overall.cases;
        const baselineCorrect = `${overall.both_correct + overall.only_first_correct}/${cases}`;
        const candidateCorrect = `${overall.both_correct + overall.only_second_correct}/${cases}`;
        // Against confidence the policies keep different supports, so the discordant credit is a real figure.
        if (baseline === "confidence") {
          assert(overall.only_first_correct + overall.only_second_correct > 0, JSON.stringify(overall));
        }

        const text = await offline(["report", directory]);
        const markdown = await offline(["report", directory, "--markdown", "-"]);
        const html = await offline(["report", directory, "--html", "-"]);
        const json = await offline(["report", directory, "--json"]);
        const outputs = { text, markdown, html, json };
        for (const [format, result] of Object.entries(outputs)) {
          assertEquals(result.code, 0, `${format}: ${result.stderr}`);
          // The unused policy as a word: not the scenario confidence_control (escaped confidence\_control).
          for (const word of [/undefined/, /NaN/, new RegExp(`(?<![\\w-])${unused}(?![\\w\\\\-])`)]) {
            assert(!word.test(result.stdout), `${format} says ${word}`);
          }
        }
        const discordant = overall.only_first_correct + overall.only_second_correct;
        const page = readable(html.stdout);
        assertStringIncludes(page, `Result: recency against ${baseline}`);
        assertStringIncludes(page, `only recency, ${overall.only_first_correct} only ${baseline}`);
        for (
          const [format, output] of [["html", page], ["text", text.stdout], ["markdown", markdown.stdout]]
        ) {
          assertStringIncludes(output, `recency − ${baseline}`, format);
          assertStringIncludes(
            output,
            `${discordant} cases graded differently: ${overall.only_second_correct} won by recency, ${overall.only_first_correct} won by ${baseline}`,
            format,
          );
          assertStringIncludes(
            output,
            `${baseline} ${baselineCorrect} vs recency ${candidateCorrect}`,
            format,
          );
        }
        const document = JSON.parse(json.stdout);
        assertEquals(
          document.suites.map((suite: { correct: Record<string, number> }) =>
            Object.keys(suite.correct).sort()
          ),
          [[baseline, "recency"].sort(), [baseline, "recency"].sort(), [baseline, "recency"].sort()],
        );
      });
    } finally {
      await server.close();
    }
  });
}
