/** Flag values of every declared kind, turned into typed values by the one parser; bad ones refused in one line. */

import { InputError } from "../../../lib/base/errors.ts";
import { defineCommand, type FlagValues } from "../../../lib/commands/_command.ts";
import { commandHelp, usageLine } from "../../../lib/commands/_help.ts";
import { parseCommandArguments } from "../../../lib/commands/_parse.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";

const FLAGS = {
  limit: { type: "integer", of: "tasks", min: 1, max: 999_999, value: "N", help: "how many" },
  ulps: { type: "integer", of: "ulps", min: 0, value: "N", help: "how far" },
  seconds: {
    type: "number",
    of: "seconds",
    min: 0,
    minExclusive: true,
    max: 3600,
    value: "SECONDS",
    help: "how long",
  },
  price: { type: "number", of: "USD", min: 0, value: "USD", help: "how much" },
  above: { type: "number", of: "grams", min: 2, minExclusive: true, value: "G", help: "how heavy" },
  reuse: { type: "list", of: "directories", value: "DIR[,DIR…]", help: "where from" },
  name: { type: "string", value: "NAME", help: "what" },
  json: { type: "boolean", help: "as JSON" },
} as const;

const COMMAND = defineCommand({
  name: "try",
  summary: "a command for the tests",
  description: "Does nothing.",
  flags: FLAGS,
  run: () => Promise.resolve(),
});

function parsed(...args: string[]): FlagValues<typeof FLAGS> {
  return parseCommandArguments(COMMAND, args).flags as FlagValues<typeof FLAGS>;
}

function refusal(...args: string[]): string {
  return assertThrows(() => parseCommandArguments(COMMAND, args), InputError).message;
}

Deno.test("each kind arrives typed: integers and numbers as numbers, a list as its items", () => {
  const flags = parsed(
    "--limit",
    "12",
    "--ulps=0",
    "--seconds",
    "0.5",
    "--price",
    "1.10",
    "--reuse",
    "a,b c",
  );
  assertEquals({ ...flags }, { limit: 12, ulps: 0, seconds: 0.5, price: 1.1, reuse: ["a", "b c"] });
  assertEquals({ ...parsed("--name", "12", "--json") }, { name: "12", json: true }); // a string stays text
  assertEquals(parsed("--reuse", "one").reuse, ["one"]);
  assertEquals(parsed("--seconds", "3600", "--limit", "999999", "--price", "0").seconds, 3600);
  assertEquals(Object.is(parsed("--price=-0").price, 0), true); // "-0" is 0, never -0
  assertEquals(parsed("--limit", "007").limit, 7);
  assertEquals(parsed("--above", "2.5").above, 2.5);
  // The values' types, checked at compile time: a command never converts text itself.
  const typed: { limit?: number; reuse?: string[]; name?: string; json?: boolean } = parsed();
  assertEquals(typed, {});
});

Deno.test("a bad value is refused in one line: the flag, what it takes, what it got", () => {
  const tasks = "--limit: expected a whole number of tasks in [1, 999999], got";
  assertEquals(refusal("--limit", "0"), `${tasks} "0"`);
  assertEquals(refusal("--limit", "1000000"), `${tasks} "1000000"`);
  assertEquals(refusal("--limit", "2.5"), `${tasks} "2.5"`);
  assertEquals(refusal("--limit", "1e3"), `${tasks} "1e3"`);
  assertEquals(refusal("--limit", " 3"), `${tasks} " 3"`);
  assertEquals(refusal("--limit", ""), `${tasks} ""`);
  assertEquals(refusal("--limit=-3"), `${tasks} "-3"`);
  assertEquals(refusal("--ulps", "0x10"), '--ulps: expected a non-negative whole number of ulps, got "0x10"');
  assertEquals(
    refusal("--ulps", "99999999999999999999"),
    '--ulps: expected a non-negative whole number of ulps, got "99999999999999999999"',
  );
  const seconds = "--seconds: expected a number of seconds in (0, 3600], got";
  for (const text of ["0", "3600.5", ".5", "5.", "1e3", "Infinity", "NaN", "soon"]) {
    assertEquals(refusal(`--seconds=${text}`), `${seconds} ${JSON.stringify(text)}`);
  }
  assertEquals(refusal("--price", "cheap"), '--price: expected a non-negative number of USD, got "cheap"');
  assertEquals(refusal("--price=-1"), '--price: expected a non-negative number of USD, got "-1"');
  assertEquals(refusal("--above", "2"), '--above: expected a number of grams above 2, got "2"');
  for (const text of [",", "a,", ",a", "a,,b", ""]) {
    assertEquals(
      refusal(`--reuse=${text}`),
      `--reuse: expected directories separated by commas, got ${JSON.stringify(text)}`,
    );
  }
});

Deno.test("a number or list flag takes its value as a string flag does: given, and not flag-like", () => {
  assertEquals(refusal("--limit"), "flag --limit needs a value");
  assertEquals(
    refusal("--limit", "-3"),
    'flag --limit needs a value, got the flag-like "-3" (write --limit=-3)',
  );
  assertEquals(
    refusal("--reuse", "--json"),
    'flag --reuse needs a value, got the flag-like "--json" (write --reuse=--json)',
  );
});

Deno.test("a flag given twice is refused, a list one pointing at its commas", () => {
  assertEquals(refusal("--limit", "5", "--limit", "2"), "flag --limit given twice (give it once)");
  assertEquals(
    refusal("--reuse", "a", "--reuse=b"),
    "flag --reuse given twice (give it once, its directories separated by commas)",
  );
});

Deno.test("with --help, help is shown whatever the values: nothing is converted or refused", () => {
  const asked = parseCommandArguments(COMMAND, ["--limit", "lots", "--reuse", ",", "--help"]);
  assertEquals([asked.help, asked.flags.limit, asked.flags.reuse], [true, "lots", ","]);
});

Deno.test("help describes a number or list flag with its value's name, as a string flag", () => {
  assertEquals(
    usageLine(COMMAND),
    "deermem-eval try [--limit N] [--ulps N] [--seconds SECONDS] [--price USD] [--above G] " +
      "[--reuse DIR[,DIR…]] [--name NAME] [--json]",
  );
  const help = commandHelp(COMMAND);
  assertEquals(help.split("\n").slice(-9), [
    "Flags:",
    "  --limit N           how many",
    "  --ulps N            how far",
    "  --seconds SECONDS   how long",
    "  --price USD         how much",
    "  --above G           how heavy",
    "  --reuse DIR[,DIR…]  where from",
    "  --name NAME         what",
    "  --json              as JSON",
  ]);
});

Deno.test("a choice arrives as one of its words, typed as their union; any other word is refused naming them", () => {
  const flags = {
    side: { type: "choice", choices: ["left", "right"], value: "SIDE", help: "which" },
  } as const;
  const command = defineCommand({
    name: "pick",
    summary: "",
    description: "",
    flags,
    run: () => Promise.resolve(),
  });
  const side: "left" | "right" | undefined = (parseCommandArguments(command, ["--side", "right"])
    .flags as FlagValues<typeof flags>).side;
  assertEquals(side, "right");
  assertEquals(
    assertThrows(() => parseCommandArguments(command, ["--side", "up"]), InputError).message,
    '--side: expected one of left, right, got "up"',
  );
});
