/**
 * `conformance`: this build against a directory of reference vector files, every value exactly.
 *
 * @module
 */

import { CommandFailedError, InputError } from "../base/mod.ts";
import { formatConformance, runConformance } from "../conformance/mod.ts";
import { defineCommand, writeDocument } from "./_command.ts";

/** The `conformance` command. */
export const command = defineCommand({
  name: "conformance",
  summary: "check this build against a directory of reference vector files",
  positionals: [{ name: "DIR" }],
  description:
    `Runs every line of each known vector file in DIR (eviction.jsonl, eviction-exotic.jsonl, datetime.jsonl,
bounded-number.jsonl, grader.jsonl, stats.jsonl, mt19937.jsonl, pyjson-floats.jsonl, pyjson-strings.jsonl,
evidence.jsonl, offsets.jsonl, prompts.jsonl, libm.jsonl) through the library and compares every value
exactly, doubles bit for bit. Fails, naming why, when a known file is missing or empty or DIR holds no vector
file; a line that is not JSON or not UTF-8 is bad input (exit 2). Symlinks are followed; unknown files are
listed as skipped; each file is read up to 64 MiB. Reads only DIR; writes nothing.`,
  flags: {
    only: {
      type: "list",
      of: "vector file names",
      value: "FILE,...",
      help: "check just these known files (each must be present) instead of all of them",
    },
    "tolerate-ulps": {
      type: "integer",
      of: "ulps",
      min: 0,
      max: 999_999,
      value: "N",
      help: "for vector files made on another platform (another libm, a CPU without FMA):\n" +
        "accept doubles up to N ulps apart; every such line is counted and listed",
    },
    json: { type: "boolean", help: "print the report as one JSON document" },
    strict: { type: "boolean", help: "fail on exotic-tier disagreements too" },
  },
  async run({ flags, positionals, io }) {
    const directory = positionals[0];
    if (directory === undefined) throw new InputError("conformance needs a directory of vector files");
    const report = await runConformance(directory, {
      strict: flags.strict,
      only: flags.only,
      tolerateUlps: flags["tolerate-ulps"] ?? 0,
    });
    if (flags.json) writeDocument(io, JSON.stringify(report, null, 2));
    else io.out(formatConformance(report));
    if (!report.ok) throw new CommandFailedError("a vector file disagrees");
  },
});
