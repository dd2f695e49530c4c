/** The explanation for the terminal: the dataset's text only on request. */
import { prepareProtocol } from "../../../lib/protocol/prepare.ts";
import { explainCase, explainText } from "../../../lib/report/mod.ts";
import { assert, assertStringIncludes } from "../../helpers/assert.ts";
import { FIXTURE_DATASET, fixtureContracts } from "../../helpers/fixture.ts";

const contracts = await fixtureContracts();
const prepared = await prepareProtocol(contracts, await Deno.readFile(FIXTURE_DATASET), FIXTURE_DATASET);

Deno.test("fact text, the question and the answer appear only with showText", () => {
  const explanation = explainCase(prepared.cases, "05fdf179", contracts.config);
  const hidden = explainText(explanation, { showText: false });
  const shown = explainText(explanation, { showText: true });
  for (const fact of explanation.facts) {
    const snippet = fact.content.replace(/\s+/g, " ").slice(0, 30);
    assert(!hidden.includes(snippet), `fact text leaked: ${snippet}`);
    assertStringIncludes(shown, snippet);
  }
  assert(!hidden.includes(explanation.question));
  assertStringIncludes(shown, `question: ${explanation.question}`);
  assertStringIncludes(hidden, "pass --show-text");
});
