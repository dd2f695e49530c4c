import { parseArgs } from "node:util";
import { InputError } from "../../lib/base/errors.ts";
import { parseFlags } from "../../lib/base/flags.ts";
import { assert, assertEquals, assertMatch, assertThrows } from "../helpers/assert.ts";

// The table's shape is the CLI's (a string flag with a short alias added, to cover that path too).
const OPTIONS = {
  config: { type: "string" },
  "output-dir": { type: "string" },
  size: { type: "string", short: "s" },
  json: { type: "boolean" },
  "dry-run": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const CASES: string[][] = [
  [],
  ["verify", "results"],
  ["verify", "results", "--config", "c.yaml", "more"],
  ["--config=c.yaml", "--json", "run-policy"],
  ["--config="],
  ["--config", ""],
  ["--config", "-"],
  ["--config=-x"],
  ["--config", "a", "--config", "b"],
  ["-h"],
  ["-hh"],
  ["-s", "3"],
  ["-s3"],
  ["-hs", "3"],
  ["-hs3"],
  ["-", "x"],
  ["--", "--json", "-h"],
  ["a", "--", "--"],
  ["--dry-run", "--output-dir", "out"],
  // rejected:
  ["--nope"],
  ["--Json"],
  ["--no-json"],
  ["---json"],
  ["--=x"],
  ["-x"],
  ["-hx"],
  ["-h=1"],
  ["--config"],
  ["--config", "--json"],
  ["--config", "-h"],
  ["--config", "--"],
  ["-s"],
  ["-s", "-h"],
  ["--json=1"],
  ["--json="],
  ["--help=x"],
];

function reference(args: string[]) {
  try {
    const parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
    return { values: { ...parsed.values }, positionals: parsed.positionals };
  } catch {
    return "rejected";
  }
}

function ours(args: string[]) {
  try {
    const parsed = parseFlags(args, OPTIONS);
    return { values: { ...parsed.values }, positionals: parsed.positionals };
  } catch (error) {
    assert(error instanceof InputError, `${JSON.stringify(args)}: ${error}`);
    assert(!error.message.includes("\n"), `one line: ${error.message}`);
    return "rejected";
  }
}

Deno.test("flags: accepts and rejects exactly what node:util parseArgs (strict) does, with the same values", () => {
  let rejected = 0;
  for (const args of CASES) {
    const expected = reference(args);
    if (expected === "rejected") rejected++;
    assertEquals(ours(args), expected, JSON.stringify(args));
  }
  // The table exercises both outcomes.
  assertEquals(rejected, 17);
});

Deno.test("flags: each error is one line naming the flag and what is wrong", () => {
  const message = (args: string[]) => assertThrows(() => parseFlags(args, OPTIONS), InputError).message;
  assertMatch(message(["--nope"]), /^unknown flag --nope /);
  assertMatch(message(["-hx"]), /^unknown flag -x /);
  assertEquals(message(["--config"]), "flag --config needs a value");
  assertEquals(
    message(["--config", "--json"]),
    'flag --config needs a value, got the flag-like "--json" (write --config=--json)',
  );
  assertEquals(message(["--help=x"]), "flag -h, --help takes no value");
});
