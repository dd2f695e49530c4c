/** A command's arguments against its own flag table: what is taken, what is refused, and the words of it. */

import { InputError } from "../../../lib/base/errors.ts";
import { type Command, defineCommand } from "../../../lib/commands/_command.ts";
import { commandHelp, usageLine } from "../../../lib/commands/_help.ts";
import { parseCommandArguments, suggestion } from "../../../lib/commands/_parse.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";

const COMMAND: Command = defineCommand({
  name: "try",
  summary: "a command for the tests",
  description: "Does nothing.",
  positionals: [{ name: "DIR", optional: true }],
  flags: {
    "output-dir": { type: "string", value: "DIR", help: "where", required: true },
    json: { type: "boolean", help: "as JSON" },
    config: { type: "string", value: "PATH", help: "config", group: "Protocol" },
  },
  run: () => Promise.resolve(),
});

function refusal(args: string[]): string {
  return assertThrows(() => parseCommandArguments(COMMAND, args), InputError).message;
}

Deno.test("a command takes its own flags in every spelling node:util's parseArgs accepts", () => {
  const parsed = parseCommandArguments(COMMAND, ["d", "--output-dir", "o", "--json"]);
  assertEquals({ ...parsed.flags }, { "output-dir": "o", json: true });
  assertEquals([parsed.positionals, parsed.help], [["d"], false]);
  assertEquals(parseCommandArguments(COMMAND, ["--output-dir=-x", "--", "--json"]).positionals, ["--json"]);
  assertEquals(parseCommandArguments(COMMAND, ["--output-dir", "-"]).flags["output-dir"], "-");
  assertEquals(parseCommandArguments(COMMAND, ["-h", "a", "b"]).help, true); // help wins over extra words
});

Deno.test("anything else is refused in one line naming the flag", () => {
  assertEquals(refusal(["--dry-run"]), "unknown flag --dry-run (try takes --output-dir, --json, --config)");
  assertEquals(refusal(["--jsno"]), "unknown flag --jsno (did you mean --json?)");
  assertEquals(refusal(["-x"]), "unknown flag -x (try takes --output-dir, --json, --config)");
  assertEquals(
    refusal(["--__proto__"]),
    "unknown flag --__proto__ (try takes --output-dir, --json, --config)",
  );
  assertEquals(refusal(["--json=1"]), "flag --json takes no value");
  assertEquals(refusal(["--output-dir"]), "flag --output-dir needs a value");
  assertEquals(
    refusal(["--output-dir", "--json"]),
    'flag --output-dir needs a value, got the flag-like "--json" (write --output-dir=--json)',
  );
  assertEquals(
    refusal(["a", "b"]),
    'unexpected argument(s) "b" (usage: deermem-eval try [DIR] --output-dir DIR [--json] [protocol flags])',
  );
});

Deno.test("a flag given twice is refused in one line, whatever its spelling or kind", () => {
  assertEquals(
    refusal(["--output-dir", "a", "--output-dir", "b"]),
    "flag --output-dir given twice (give it once)",
  );
  assertEquals(
    refusal(["--output-dir=a", "--json", "--output-dir", "a"]),
    "flag --output-dir given twice (give it once)",
  );
  assertEquals(refusal(["--json", "--json"]), "flag --json given twice (give it once)");
  assertEquals(parseCommandArguments(COMMAND, ["-h", "--help"]).help, true); // asking for help twice is asking
});

Deno.test("did you mean: within two edits or a prefix of three letters or more, else nothing", () => {
  assertEquals(suggestion("reprot", ["report", "verify"]), " (did you mean report?)");
  assertEquals(suggestion("rep", ["report", "verify"]), " (did you mean report?)");
  assertEquals(suggestion("re", ["report", "verify"]), "");
  assertEquals(suggestion("zzzzzz", ["report", "verify"]), "");
});

Deno.test("help is generated from the declaration: usage, description, flags by group", () => {
  assertEquals(usageLine(COMMAND), "deermem-eval try [DIR] --output-dir DIR [--json] [protocol flags]");
  assertEquals(
    commandHelp(COMMAND),
    [
      "Usage: deermem-eval try [DIR] --output-dir DIR [--json] [protocol flags]",
      "",
      "Does nothing.",
      "",
      "Flags:",
      "  --output-dir DIR  where",
      "  --json            as JSON",
      "",
      "Protocol:",
      "  --config PATH     config",
    ].join("\n"),
  );
});

Deno.test("run-qa --help is in paragraphs: none longer than 10 lines at 80 columns", async () => {
  const { command } = await import("../../../lib/commands/run_qa.ts");
  const blocks = commandHelp(command, 80).split("\n\n").slice(1); // after the usage
  const description = blocks.filter((block) => !/^[^\n]*:\n {2}--/.test(block)); // before the flag groups
  const lengths = description.map((block) => block.split("\n").length);
  assertEquals(lengths.filter((lines) => lines > 10), [], `paragraph lengths ${lengths}`);
});
