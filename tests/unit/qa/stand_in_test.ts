import { sha256Hex } from "../../../lib/base/hash.ts";
import { PythonRandom } from "../../../lib/py/random.ts";
import { requestFingerprint } from "../../../lib/qa/run/prompt.ts";
import { standInAnswer, startStandIn } from "../../../lib/qa/answer/stand_in.ts";
import { assert, assertEquals } from "../../helpers/assert.ts";

const FACTS = [
  "Lena bought a red kite.",
  "Lena paid 42 dollars.",
  "The kite flew over the lake.",
  "Omar likes tea.",
];
const USER = `STORED MEMORY:\n${
  FACTS.map((fact, index) => `[f${index}]\n${fact}`).join("\n\n")
}\n\nQUESTION: What did Lena pay for the kite?`;
const MESSAGES = [{ role: "system" as const, content: "S" }, { role: "user" as const, content: USER }];

async function ask(baseUrl: string, temperature: number): Promise<string> {
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    body: JSON.stringify({ model: "m", messages: MESSAGES, max_tokens: 64, stream: false, temperature }),
  });
  return (await response.json()).choices[0].message.content;
}

async function answersOfRuns(temperature: number, runs: number): Promise<string[]> {
  const server = startStandIn();
  try {
    const answers: string[] = [];
    for (let run = 1; run <= runs; run++) answers.push(await ask(server.runUrl(run), temperature));
    return answers;
  } finally {
    await server.close();
  }
}

Deno.test("at temperature 0 the stand-in answers as before, whatever the run number", async () => {
  const answers = await answersOfRuns(0, 4);
  assertEquals(answers, Array(4).fill(standInAnswer(MESSAGES)));
  assertEquals(answers[0], "Lena bought a red kite."); // two shared words: lena, kite
});

Deno.test("above temperature 0 it draws, seeded by the request fingerprint and the run number, among the facts sharing a word", async () => {
  const runs = 12;
  const answers = await answersOfRuns(0.7, runs);
  // Independently: the fingerprint the rows record, then SHA-256 of "fingerprint\nrun" seeds randrange.
  const fingerprint = await requestFingerprint(
    { model: "m", temperature: 0.7, maxTokens: 64, stream: false },
    MESSAGES,
  );
  const sharing = FACTS.slice(0, 3); // "Omar likes tea." shares no word with the question
  const expected: string[] = [];
  for (let run = 1; run <= runs; run++) {
    const seed = BigInt(`0x${await sha256Hex(`${fingerprint}\n${run}`)}`);
    expected.push(sharing[new PythonRandom(seed).randrange(sharing.length)]);
  }
  assertEquals(answers, expected);
  assert(new Set(answers).size > 1, "runs differ");
  assertEquals(await answersOfRuns(0.7, runs), answers); // reproducible
});
