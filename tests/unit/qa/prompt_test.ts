import { parsePromptTemplate, renderMessages } from "../../../lib/qa/run/prompt.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";

const template = parsePromptTemplate(
  "SYSTEM:\nS\nUSER:\n{{CURRENT_DATE_SECTION}}{{STORED_MEMORY}}|{{QUESTION}}",
);

Deno.test("the stored memory is rendered sorted by fact id", () => {
  const [, user] = renderMessages(template, {
    question: "Q?",
    questionDate: null,
    facts: [{ id: "b", content: "2" }, { id: "a", content: "1" }],
  });
  assertEquals(user.content, "[a]\n1\n\n[b]\n2|Q?");
});

Deno.test("two facts with one id are refused, wherever they sit in the input", () => {
  for (
    const facts of [
      [{ id: "a", content: "1" }, { id: "a", content: "2" }],
      [{ id: "z", content: "1" }, { id: "m", content: "2" }, { id: "z", content: "3" }],
    ]
  ) {
    const duplicate = facts[0].id;
    assertThrows(
      () => renderMessages(template, { question: "Q?", questionDate: null, facts }),
      RangeError,
      `duplicate fact id ${duplicate}`,
    );
  }
  // Ids that differ only past the first character are not duplicates.
  renderMessages(template, {
    question: "Q?",
    questionDate: null,
    facts: [{ id: "a1", content: "" }, { id: "a", content: "" }],
  });
});
