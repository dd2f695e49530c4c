// Issue 10 as a table: each case, its expected exit code, a fragment of its one-line message, and the files that
// must not exist afterwards. Faults are injected in the CLI's own process through lib/base/fs.ts's counted layer
// (tests/fixtures/fault_cli.ts), so no case needs root, a mount or a full disk.

import { POLICY_OUTPUTS } from "../../../lib/commands/run_policy.ts";
import { QA_OUTPUTS } from "../../../lib/commands/grade_qa.ts";
import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, GOLDEN, ROOT, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { copyReferenceRun, FIXTURE_DATASET, FIXTURE_PROTOCOL } from "../../helpers/fixture.ts";

const FAULT_CLI = `${ROOT}tests/fixtures/fault_cli.ts`;
const ROW = "responses/05fdf179__confidence.json";

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(
  args: string[],
  faults: string[] = [],
  env: Record<string, string> = {},
): Promise<Outcome> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...taskFlags("cli"), FAULT_CLI, ...faults, "--", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

async function walk(directory: string, prefix = ""): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(directory)) {
      names.push(`${prefix}${entry.name}`);
      if (entry.isDirectory) {
        names.push(...await walk(`${directory}/${entry.name}`, `${prefix}${entry.name}/`));
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotADirectory)) throw error;
  }
  return names;
}

async function patch(path: string, change: (text: string) => string): Promise<void> {
  const text = await Deno.readTextFile(path);
  const changed = change(text);
  assert(changed !== text, `the edit of ${path} changed nothing`);
  await Deno.writeTextFile(path, changed);
}

async function putInvalidByte(path: string, after: string): Promise<void> {
  const bytes = await Deno.readFile(path);
  const at = new TextDecoder().decode(bytes).indexOf(after) + after.length;
  assert(at >= after.length, `${after} not in ${path}`);
  bytes[at] = 0xff;
  await Deno.writeFile(path, bytes);
}

const policyArgs = (
  d: string,
) => ["run-policy", "--dataset", FIXTURE_DATASET, "--output-dir", `${d}/out`, ...fixtureProtocolFlags()];
const gradeArgs = (
  d: string,
) => ["grade-qa", "--dataset", FIXTURE_DATASET, "--output-dir", `${d}/run`, ...fixtureProtocolFlags()];
const verifyArgs = (d: string) => ["verify", `${d}/run`, ...fixtureProtocolFlags()];
const policyOut = POLICY_OUTPUTS.map((name) => `out/${name}`);
const qaOut = QA_OUTPUTS.map((name) => `run/${name}`);

async function qaRun(d: string): Promise<void> {
  await Deno.mkdir(`${d}/run`);
  await copyReferenceRun(`${d}/run`);
}

async function publishedRun(d: string): Promise<void> {
  await Deno.mkdir(`${d}/run`);
  for (const name of ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"]) {
    await Deno.copyFile(`${GOLDEN}/fixture-run/qa/${name}`, `${d}/run/${name}`);
  }
}

interface TrustCase {
  name: string;
  setup?: (directory: string) => Promise<void>;
  args: (directory: string) => string[];
  faults?: string[];
  env?: Record<string, string>;
  code: number;
  /** A fragment of the one stderr line (or, for a verification that does not hold, of stdout). */
  message: string;
  /** Paths under the temporary directory that must not exist afterwards. */
  absent?: string[];
  /** The same command without faults must then succeed (a rerun after a failure just works). */
  rerun?: boolean;
}

const CASES: TrustCase[] = [
  // 3. All-or-nothing outputs: a failure at any step leaves none of the three files and no staging file.
  {
    name: "run-policy, the 2nd file hits a full disk",
    args: policyArgs,
    faults: ["write:2:ENOSPC"],
    code: 1,
    message: "cannot write: No space left on device (os error 28)",
    absent: policyOut,
    rerun: true,
  },
  {
    name: "run-policy, the 3rd link into place is refused (read-only)",
    args: policyArgs,
    faults: ["link:3:EROFS"],
    code: 1,
    message: "out/run.json: cannot link: Read-only file system (os error 30)",
    absent: policyOut,
    rerun: true,
  },
  {
    name: "run-policy, removing a staging file fails",
    args: policyArgs,
    faults: ["remove:1:EACCES"],
    code: 1,
    message: "Permission denied (os error 13)",
    absent: policyOut,
    rerun: true,
  },
  {
    name: "run-policy, the output directory cannot be created",
    args: policyArgs,
    faults: ["mkdir:1:EACCES"],
    code: 1,
    message: "out: cannot create directory: Permission denied (os error 13)",
    absent: ["out"],
    rerun: true,
  },
  {
    name: "run-policy into a directory holding one of its outputs",
    setup: async (d) => {
      await Deno.mkdir(`${d}/out`);
      await Deno.writeTextFile(`${d}/out/summary.json`, "{}\n");
    },
    args: policyArgs,
    code: 2,
    message: "out/summary.json: refusing to overwrite an existing file",
    absent: ["out/policy.raw.jsonl", "out/run.json"],
  },
  {
    name: "run-policy where the output directory is a file",
    setup: (d) => Deno.writeTextFile(`${d}/out`, "x"),
    args: policyArgs,
    code: 1,
    message: "out: cannot create directory: File exists (os error 17)",
  },
  {
    name: "grade-qa, the 3rd file hits a full disk",
    setup: qaRun,
    args: gradeArgs,
    faults: ["write:3:ENOSPC"],
    code: 1,
    message: "cannot write: No space left on device (os error 28)",
    absent: qaOut,
    rerun: true,
  },
  {
    name: "grade-qa, the 2nd link into place is refused (read-only)",
    setup: qaRun,
    args: gradeArgs,
    faults: ["link:2:EROFS"],
    code: 1,
    message: "run/qa.summary.json: cannot link: Read-only file system (os error 30)",
    absent: qaOut,
    rerun: true,
  },
  // 9. grade-qa refuses existing outputs before any work: the dataset path is never even read.
  {
    name: "grade-qa with one of its outputs present refuses before reading anything",
    setup: async (d) => {
      await qaRun(d);
      await Deno.writeTextFile(`${d}/run/qa.stats.json`, "{}\n");
    },
    args: (d) => ["grade-qa", "--dataset", `${d}/no-such-dataset.json`, "--output-dir", `${d}/run`],
    code: 2,
    message: "run/qa.stats.json: refusing to overwrite an existing file",
    absent: ["run/qa.rows.jsonl", "run/qa.summary.json"],
  },
  // 4. No stack traces: each I/O failure is one line with the command, the path and the OS's reason.
  {
    name: "grade-qa where the directory is a file",
    setup: (d) => Deno.writeTextFile(`${d}/run`, "x"),
    args: gradeArgs,
    code: 1,
    message: "run/epochs.json: cannot read epochs record: Not a directory (os error 20)",
  },
  {
    name: "grade-qa where qa_run.json is a directory",
    setup: async (d) => {
      await qaRun(d);
      await Deno.remove(`${d}/run/qa_run.json`);
      await Deno.mkdir(`${d}/run/qa_run.json`);
    },
    args: gradeArgs,
    code: 1,
    message: "run/qa_run.json: cannot read run marker: Is a directory (os error 21)",
    absent: qaOut,
  },
  {
    name: "grade-qa where responses is a file",
    setup: async (d) => {
      await qaRun(d);
      await Deno.remove(`${d}/run/responses`, { recursive: true });
      await Deno.writeTextFile(`${d}/run/responses`, "x");
    },
    args: gradeArgs,
    code: 1,
    message: "run/responses: cannot list directory: Not a directory (os error 20)",
    absent: qaOut,
  },
  {
    name: "grade-qa where a row file is a directory",
    setup: async (d) => {
      await qaRun(d);
      await Deno.remove(`${d}/run/${ROW}`);
      await Deno.mkdir(`${d}/run/${ROW}`);
    },
    args: gradeArgs,
    code: 1,
    message: `run/${ROW}: cannot read answer row: Is a directory (os error 21)`,
    absent: qaOut,
  },
  {
    name: "verify /etc/hostname",
    args: () => ["verify", "/etc/hostname"],
    code: 1,
    message: "deermem-eval verify: /etc/hostname/qa.rows.jsonl: cannot read graded rows: Not a directory",
  },
  {
    name: "verify a directory that does not exist",
    args: (d) => ["verify", `${d}/none`],
    code: 2,
    message: "none: results directory not found",
  },
  {
    name: "verify a directory with an empty qa.rows.jsonl",
    setup: async (d) => {
      await publishedRun(d);
      await Deno.writeTextFile(`${d}/run/qa.rows.jsonl`, "");
    },
    args: verifyArgs,
    code: 1,
    message: "one row per (case, policy), no duplicates, row ids CASE__POLICY, 7 kept facts each — no rows",
  },
  {
    name: "an unexpected failure (a bug) is one line with the debug hint",
    args: policyArgs,
    faults: ["write:1:TypeError"],
    code: 1,
    message:
      "deermem-eval run-policy: unexpected error: TypeError: simulated bug (set DEERMEM_EVAL_DEBUG=1 for a trace)",
    absent: policyOut,
  },
  // 9. Missing inputs are refused, naming them.
  {
    // A run missing rows grades as partial (tests/process/cli/partial_runs_test.ts), but only with a complete pair.
    name: "grade-qa on a run whose rows make no complete pair",
    setup: async (d) => {
      await qaRun(d);
      for await (const entry of Deno.readDir(`${d}/run/responses`)) {
        if (`responses/${entry.name}` !== ROW) await Deno.remove(`${d}/run/responses/${entry.name}`);
      }
    },
    args: gradeArgs,
    code: 2,
    message: "run/responses: no case has both policies' rows yet (1 of 90 tasks): run run-qa to answer more",
    absent: [...qaOut, "run/partial"],
  },
  {
    name: "grade-qa with a missing qa_run.json",
    setup: async (d) => {
      await qaRun(d);
      await Deno.remove(`${d}/run/qa_run.json`);
    },
    args: gradeArgs,
    code: 2,
    message: "run/qa_run.json: missing: not a run-qa output directory",
    absent: qaOut,
  },
  // 2. Strict UTF-8 on every read.
  {
    name: "grade-qa with \\xff in a row file's prediction",
    setup: async (d) => {
      await qaRun(d);
      await putInvalidByte(`${d}/run/${ROW}`, '"prediction": "');
    },
    args: gradeArgs,
    code: 2,
    message: `run/${ROW}: not valid UTF-8: line 16, byte offset`,
    absent: qaOut,
  },
  {
    name: "grade-qa with \\xff in qa_run.json",
    setup: async (d) => {
      await qaRun(d);
      await putInvalidByte(`${d}/run/qa_run.json`, '"model": "');
    },
    args: gradeArgs,
    code: 2,
    message: "run/qa_run.json: not valid UTF-8: line 28",
    absent: qaOut,
  },
  {
    name: "verify with \\xff in qa.rows.jsonl",
    setup: async (d) => {
      await publishedRun(d);
      await putInvalidByte(`${d}/run/qa.rows.jsonl`, '"prediction": "');
    },
    args: verifyArgs,
    code: 2,
    message: "run/qa.rows.jsonl: not valid UTF-8: line 1, byte offset",
  },
  {
    name: "a config with \\xff",
    setup: async (d) => {
      await Deno.copyFile(`${FIXTURE_PROTOCOL}/config.yaml`, `${d}/config.yaml`);
      await putInvalidByte(`${d}/config.yaml`, "model: ");
    },
    args: (d) => ["validate-contracts", "--config", `${d}/config.yaml`],
    code: 2,
    message: "config.yaml: not valid UTF-8",
  },
  // 5. Size caps.
  {
    name: "--config /dev/zero is refused by its type, never read",
    args: () => ["validate-contracts", "--config", "/dev/zero"],
    code: 2,
    message: "deermem-eval validate-contracts: /dev/zero: config is a character device, not a regular file",
  },
  {
    name: "a config over the 256 KiB contract cap",
    setup: async (d) => {
      await Deno.copyFile(`${FIXTURE_PROTOCOL}/config.yaml`, `${d}/config.yaml`);
      await Deno.truncate(`${d}/config.yaml`, 256 * 1024 + 1);
    },
    args: (d) => ["validate-contracts", "--config", `${d}/config.yaml`],
    code: 2,
    message: "config.yaml: config is 262145 bytes, over the 256 KiB cap",
  },
  {
    name: "a row file over the 16 MiB cap",
    setup: async (d) => {
      await qaRun(d);
      await Deno.truncate(`${d}/run/${ROW}`, 16 * 1024 * 1024 + 1);
    },
    args: gradeArgs,
    code: 2,
    message: `run/${ROW}: answer row is 16777217 bytes, over the 16 MiB cap`,
    absent: qaOut,
  },
  // 7. The marker: the same check in grade-qa and verify.
  ...([
    ["protocol_id", '"protocol_id": "deermem-fixture-v1"', '"protocol_id": "other"', "protocol_id: this run"],
    ["qa.model", '"model": "deepseek-v4-flash"', '"model": "other"', "qa.model: this run"],
    [
      "an extra artifact key",
      '"artifacts": {',
      '"artifacts": {"extra_sha256": "0",',
      "artifacts: unknown key(s): extra_sha256",
    ],
    ["a missing artifact key", /\n {4}"dataset_sha256": "[0-9a-f]+",/, "", "artifacts.dataset_sha256:"],
    ["schema_version 9", '"schema_version": 2', '"schema_version": 9', "schema_version:"],
  ] as const).flatMap(([what, from, to, message]): TrustCase[] => [
    {
      name: `grade-qa with a marker differing in ${what}`,
      setup: async (d) => {
        await qaRun(d);
        await patch(`${d}/run/qa_run.json`, (text) => text.replace(from, to));
      },
      args: gradeArgs,
      code: 2,
      message: `run/qa_run.json: ${message}`,
      absent: qaOut,
    },
    {
      name: `verify with a marker differing in ${what}`,
      setup: async (d) => {
        await publishedRun(d);
        await patch(`${d}/run/qa_run.json`, (text) => text.replace(from, to));
      },
      args: verifyArgs,
      // Another protocol's run is told in one line before any check, as bad input; a malformed marker fails a check.
      ...(what === "protocol_id" || what === "qa.model"
        ? { code: 2, message: `run/qa_run.json: made under another protocol: ${what}: the run has "other"` }
        : { code: 1, message: `run/qa_run.json: ${message}` }),
    },
  ]),
  {
    name: "grade-qa names files in responses/ that are not a task's row, and grades the rest",
    setup: async (d) => {
      await qaRun(d);
      await Deno.writeTextFile(`${d}/run/responses/notes.txt`, "x");
      await Deno.writeTextFile(`${d}/run/responses/zzz__confidence.json`, "{}");
      await Deno.mkdir(`${d}/run/responses/superseded`);
    },
    args: gradeArgs,
    code: 0,
    message: "holds 2 file(s) that are not a task's row, not graded: notes.txt, zzz__confidence.json",
  },
  // 8. Unexpected positional arguments.
  ...[
    ["validate-contracts", "foo"],
    ["validate", "foo"],
    ["run-policy", "foo"],
    ["run-qa", "foo"],
    ["grade-qa", "foo"],
    ["verify", "a", "b"],
    ["demo", "foo"],
    ["conformance", "a", "b"],
  ].map(([command, ...words]): TrustCase => ({
    name: `${command} with an unexpected argument`,
    args: () => [command, ...words],
    code: 2,
    message: `deermem-eval ${command}: unexpected argument(s) "${words.at(-1)}"`,
  })),
];

for (const trust of CASES) {
  Deno.test(`trust: ${trust.name} → exit ${trust.code}`, async () => {
    await withTempDir(async (directory) => {
      await trust.setup?.(directory);
      const args = trust.args(directory);
      const outcome = await run(args, trust.faults, trust.env);
      const report = `stdout:\n${outcome.stdout}\nstderr:\n${outcome.stderr}`;
      assertEquals(outcome.code, trust.code, report);
      const errLines = outcome.stderr.split("\n").filter((line) => line !== "");
      assert(errLines.length <= 1, `more than one stderr line:\n${report}`);
      assert(!/^\s+at /m.test(outcome.stderr), `a stack trace:\n${report}`);
      assertStringIncludes(errLines.length > 0 ? outcome.stderr : outcome.stdout, trust.message, report);
      const left = await walk(directory);
      for (const path of trust.absent ?? []) assert(!left.includes(path), `${path} exists:\n${report}`);
      assertEquals(left.filter((path) => path.endsWith(".staging")), [], "staging files left behind");
      if (trust.rerun) {
        const again = await run(args);
        assertEquals(again.code, 0, `the rerun: ${again.stderr}`);
      }
    });
  });
}

Deno.test("trust: DEERMEM_EVAL_DEBUG=1 adds the trace to an unexpected failure", async () => {
  await withTempDir(async (directory) => {
    const outcome = await run(policyArgs(directory), ["write:1:TypeError"], { DEERMEM_EVAL_DEBUG: "1" });
    assertEquals(outcome.code, 1);
    assertStringIncludes(outcome.stderr.split("\n")[0], "unexpected error: TypeError: simulated bug");
    assert(/^\s+at .*fault_cli\.ts/m.test(outcome.stderr), outcome.stderr);
  });
});

Deno.test("trust: grade-qa writes exactly one row per (case, policy)", async () => {
  await withTempDir(async (directory) => {
    await qaRun(directory);
    const outcome = await run(gradeArgs(directory));
    assertEquals(outcome.code, 0, outcome.stderr);
    const rows = (await Deno.readTextFile(`${directory}/run/qa.rows.jsonl`)).trimEnd().split("\n").map((
      line,
    ) => JSON.parse(line) as { case_id: string; policy: string });
    const pairs = new Set(rows.map((row) => `${row.case_id} ${row.policy}`));
    const cases = new Set(rows.map((row) => row.case_id));
    assertEquals(rows.length, 90);
    assertEquals(pairs.size, 90);
    assertEquals(cases.size * 2, 90);
  });
});

Deno.test("trust: a verify with bootstrap_iterations 1e12 ends in one line, never a trace", async () => {
  await withTempDir(async (directory) => {
    await publishedRun(directory);
    await Deno.writeTextFile(
      `${directory}/config.yaml`,
      (await Deno.readTextFile(`${FIXTURE_PROTOCOL}/config.yaml`)).replace(
        "bootstrap_iterations: 10000",
        "bootstrap_iterations: 1000000000000",
      ),
    );
    const outcome = await run([
      "verify",
      `${directory}/run`,
      "--config",
      `${directory}/config.yaml`,
      "--official-manifest",
      `${FIXTURE_PROTOCOL}/official.json`,
      "--synthetic-manifest",
      `${FIXTURE_PROTOCOL}/synthetic.json`,
    ]);
    // Exit 1 (unexpected, caught) until the config bounds the iterations; exit 2 (bad input) after.
    assert(outcome.code === 1 || outcome.code === 2, outcome.stderr);
    assertEquals(outcome.stderr.trimEnd().split("\n").length, 1, outcome.stderr);
    assert(!/^\s+at /m.test(outcome.stderr), outcome.stderr);
  });
});
