/**
 * README is executed: its command reference is exactly what help prints, and every command of its `sh` blocks
 * runs, as written, on the demo's protocol (the pinned dataset is not here), exits 0 and prints the words the
 * README shows after `#`.
 */

import { dirname } from "node:path";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { completion, startAnswerServer } from "../../helpers/answer_server.ts";
import { ROOT, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { demoCaseId } from "../../helpers/fixture.ts";
import { COMMAND_NAMES, loadAllCommands, usageLine } from "../../../lib/commands/mod.ts";

Deno.test("README lists every command with exactly the flags it takes", async () => {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const block = readme.slice(readme.indexOf("```text\ndeermem-eval validate-contracts"));
  const listed = block.slice("```text\n".length, block.indexOf("\n```")).split("\n");
  const commands = await loadAllCommands();
  assertEquals(listed, commands.map(usageLine));
  assertEquals(commands.map((command) => command.name), [...COMMAND_NAMES]);
});

export interface ReadmeCommand {
  /** The README line the command starts on (1-based). */
  line: number;
  /** The command as a shell reads it: continuations joined, a trailing `# comment` removed. */
  command: string;
  /** The `#` lines that follow it: words its output must show, `…` standing for anything. */
  expect: string[];
}

/** Every command of every ```sh block, in order; `export NAME=VALUE` lines are commands too. */
export function readmeCommands(readme: string): ReadmeCommand[] {
  const commands: ReadmeCommand[] = [];
  let inBlock = false;
  let pending: ReadmeCommand | undefined;
  const lines = readme.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (!inBlock) {
      inBlock = line === "```sh";
      continue;
    }
    if (line.startsWith("```")) {
      inBlock = false;
      pending = undefined;
      continue;
    }
    if (line.startsWith("#")) {
      const words = line.replace(/^#\s*/, "").trim();
      if (pending && words !== "") pending.expect.push(words);
      continue;
    }
    if (line.trim() === "") continue;
    let text = line;
    const start = index;
    while (text.endsWith("\\") && index + 1 < lines.length) {
      text = `${text.slice(0, -1).trimEnd()} ${lines[++index].trim()}`;
    }
    pending = { line: start + 1, command: text.replace(/\s+#\s.*$/, "").trim(), expect: [] };
    commands.push(pending);
  }
  return commands;
}

Deno.test("the README reader joins continuations, drops trailing comments and keeps the words after #", () => {
  const readme = [
    "```text",
    "not run",
    "```",
    "```sh",
    "deno task demo    # the main job",
    "export KEY=value",
    "deno task cli run-policy --dataset D \\",
    "  --output-dir runs/x",
    "#   support retained",
    "#   … of 45",
    "```",
  ].join("\n");
  assertEquals(readmeCommands(readme), [
    { line: 5, command: "deno task demo", expect: [] },
    { line: 6, command: "export KEY=value", expect: [] },
    {
      line: 7,
      command: "deno task cli run-policy --dataset D --output-dir runs/x",
      expect: ["support retained", "… of 45"],
    },
  ]);
});

/** Where `words` (with `…` for anything) is missing from `output`, the fragment that is not found, in order. */
export function missingWords(output: string, words: string): string | undefined {
  const flat = output.replace(/\s+/g, " ");
  let from = 0;
  for (const fragment of words.split("…").map((part) => part.replace(/\s+/g, " ").trim())) {
    if (fragment === "") continue;
    const at = flat.indexOf(fragment, from);
    if (at < 0) return fragment;
    from = at + fragment.length;
  }
  return undefined;
}

Deno.test("the words check needs each fragment in order, across line breaks", () => {
  assertEquals(
    missingWords("validated dataset abc\n  and prepared 45 cases", "dataset … prepared 45"),
    undefined,
  );
  assertEquals(missingWords("prepared 45 cases; validated dataset", "dataset … prepared 45"), "prepared 45");
});

/** A policy module none of the fixtures is: keeps the most recently created facts. */
const NEWEST_FIRST = `import type { Policy } from "${ROOT}mod.ts";
const newestFirst: Policy = {
  name: "newest-first",
  select(input) {
    const order = input.facts.map((fact, index) => ({ id: fact.id, index, at: Date.parse(fact.createdAt ?? "") }))
      .sort((a, b) => (Number.isNaN(b.at) ? -Infinity : b.at) - (Number.isNaN(a.at) ? -Infinity : a.at) ||
        a.index - b.index)
      .map((entry) => entry.id);
    const scores = Object.fromEntries(order.map((id, rank) => [id, order.length - rank]));
    return { kept: order.slice(0, input.capacity), evicted: order.slice(input.capacity).reverse(), scores };
  },
};
export default newestFirst;
`;

/** The placeholders README defines, and the demo's protocol added wherever a command reads the dataset. */
function substitute(
  command: string,
  places: { runs: string; module: string; caseId: string; dataset: string; protocol: string },
) {
  let text = command.replaceAll('"$LONGMEMEVAL_ORACLE_PATH"', places.dataset).replaceAll(
    " runs/",
    ` ${places.runs}/`,
  ).replace(/(?<= )M(?= |$)/g, places.module)
    .replace(/(?<= )CASE(?= |$)/g, places.caseId);
  // A command naming its own protocol (an authored one) keeps it; author-protocol's source is the pinned one.
  if (/ --dataset | runs\//.test(command) && !/ --protocol | author-protocol /.test(command)) {
    text += ` --protocol ${places.protocol}`;
  }
  return text;
}

Deno.test("every command in README's sh blocks runs on the demo's protocol and prints what README shows", async () => {
  const commands = readmeCommands(await Deno.readTextFile(`${ROOT}README.md`));
  assert(commands.length >= 20, `only ${commands.length} commands found: the reader is not reading README`);
  // The model's answers come from a server here: the README's endpoint is never contacted.
  const server = startAnswerServer((request) => {
    const text = JSON.stringify(request.body.messages);
    return completion(/week|day|month/i.test(text) ? "3 weeks" : "I don't know");
  });
  try {
    await withTempDir(async (directory) => {
      const demo = `${directory}/demo`;
      const made = await runCli(["demo", "--output-dir", demo], { flags: taskFlags("demo") });
      assertEquals(made.code, 0, made.stderr);
      const caseId = await demoCaseId(demo);
      const datasetName = [...Deno.readDirSync(`${demo}/protocol/dataset`)][0].name;
      await Deno.mkdir(`${directory}/runs`);
      const module = `${directory}/newest_first.ts`;
      await Deno.writeTextFile(module, NEWEST_FIRST);
      const places = {
        runs: `${directory}/runs`,
        module,
        caseId,
        dataset: `${demo}/protocol/dataset/${datasetName}`,
        protocol: `${demo}/protocol`,
      };
      const env: Record<string, string> = {
        PATH: `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
        NO_COLOR: "1",
      };
      const skipped: string[] = [];
      for (const { line, command, expect } of commands) {
        // The suite itself: running it from inside itself would recurse.
        if (command === "deno task test") {
          skipped.push(command);
          continue;
        }
        const exported = /^export (\w+)=(\S*)$/.exec(command);
        if (exported) {
          env[exported[1]] = exported[1].endsWith("_BASE_URL") ? server.url : exported[2];
          continue;
        }
        const text = substitute(command, places);
        const output = await new Deno.Command("sh", {
          args: ["-c", text],
          cwd: ROOT,
          env,
          clearEnv: true,
          stdout: "piped",
          stderr: "piped",
        }).output();
        const printed = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
        assertEquals(output.code, 0, `README line ${line}: ${text}\n${printed}`);
        for (const words of expect) {
          const missing = missingWords(printed, words.replaceAll("CASE", caseId));
          assertEquals(
            missing,
            undefined,
            `README line ${line}: ${text}\nshows "${words}", printed:\n${printed}`,
          );
        }
      }
      assertEquals(skipped, ["deno task test"]);
    });
  } finally {
    await server.close();
  }
});
