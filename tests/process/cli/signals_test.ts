// Signals at the moment of publishing: the CLI runs in-process (tests/fixtures/signal_cli.ts) and its publish hook
// holds it just before the Nth link, so SIGINT, SIGTERM or SIGKILL land exactly there. After SIGINT or SIGTERM
// the publish is undone before the program ends (130, 143, one line); after SIGKILL the rerun clears what was
// left; either way the rerun just works and no staging or journal file outlives it.

import { POLICY_OUTPUTS } from "../../../lib/commands/run_policy.ts";
import { QA_OUTPUTS } from "../../../lib/commands/grade_qa.ts";
import { EPOCHS_FILE, epochsRecordJson } from "../../../lib/qa/run/epochs.ts";
import { completion, startAnswerServer } from "../../helpers/answer_server.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, GOLDEN, ROOT, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { copyReferenceRun, FIXTURE_DATASET, REFERENCE_QA } from "../../helpers/fixture.ts";

const SIGNAL_CLI = `${ROOT}tests/fixtures/signal_cli.ts`;
const REFERENCE_POLICY = `${GOLDEN}/fixture-run/policy`;
const CLI = { flags: taskFlags("cli") };

type Signal = "SIGINT" | "SIGTERM" | "SIGKILL";

interface Scenario {
  command: string;
  /** The run's directory under the scratch directory, and the files it publishes there. */
  directory: string;
  outputs: readonly string[];
  setup?: (directory: string) => Promise<void>;
  extra?: (scratch: string) => Promise<string[]>;
  /** Asserts the published files are those of a clean run. */
  clean: (directory: string) => Promise<void>;
}

async function sameBytes(ours: string, reference: string): Promise<void> {
  assertEquals(await Deno.readTextFile(ours), await Deno.readTextFile(reference), ours);
}

const RUN_POLICY: Scenario = {
  command: "run-policy",
  directory: "out",
  outputs: POLICY_OUTPUTS,
  clean: async (directory) => {
    for (const name of ["policy.raw.jsonl", "summary.json"]) {
      await sameBytes(`${directory}/${name}`, `${REFERENCE_POLICY}/${name}`);
    }
    const [ours, reference] = [
      JSON.parse(await Deno.readTextFile(`${directory}/run.json`)),
      JSON.parse(await Deno.readTextFile(`${REFERENCE_POLICY}/run.json`)),
    ];
    for (const record of [ours, reference]) delete record.created_at, delete record.git;
    assertEquals(ours, reference);
  },
};

const GRADE_QA: Scenario = {
  command: "grade-qa",
  directory: "run",
  outputs: QA_OUTPUTS,
  setup: async (directory) => {
    await Deno.mkdir(directory);
    await copyReferenceRun(directory);
  },
  clean: async (directory) => {
    for (const name of QA_OUTPUTS) await sameBytes(`${directory}/${name}`, `${REFERENCE_QA}/${name}`);
  },
};

/** A K = 3 directory of three copies of the reference's run: grade-qa publishes its nine files together. */
const GRADE_QA_THREE_RUNS: Scenario = {
  command: "grade-qa",
  directory: "run",
  outputs: ["", "epoch-2/", "epoch-3/"].flatMap((run) => QA_OUTPUTS.map((name) => `${run}${name}`)),
  setup: async (directory) => {
    for (const run of [directory, `${directory}/epoch-2`, `${directory}/epoch-3`]) {
      await Deno.mkdir(run, { recursive: true });
      await copyReferenceRun(run);
    }
    await Deno.writeTextFile(`${directory}/${EPOCHS_FILE}`, epochsRecordJson(3));
  },
  clean: async (directory) => {
    for (const run of ["", "epoch-2/", "epoch-3/"]) {
      for (const name of QA_OUTPUTS) await sameBytes(`${directory}/${run}${name}`, `${REFERENCE_QA}/${name}`);
    }
  },
};

const SWEEP_GRID = "weights_step: 0.5\nconfirmation_half_life_days: [90]\naccess_half_life_days: [30]\n" +
  "correction_reserved_fraction: [0.1]\ncorrection_reserved_max: [10]\ncapacities: [5, 7]\n";

const SWEEP: Scenario = {
  command: "sweep",
  directory: "sweep",
  outputs: ["sweep.jsonl", "sweep.json"],
  extra: async (scratch) => {
    await Deno.writeTextFile(`${scratch}/grid.yaml`, SWEEP_GRID);
    return ["--grid", `${scratch}/grid.yaml`];
  },
  clean: async (directory) => {
    const rows = (await Deno.readTextFile(`${directory}/sweep.jsonl`)).trimEnd().split("\n");
    assertEquals(rows.length, 60); // six weight points × two capacities × five scenarios
  },
};

async function commandArgs(scenario: Scenario, scratch: string): Promise<string[]> {
  return [
    scenario.command,
    "--dataset",
    FIXTURE_DATASET,
    "--output-dir",
    `${scratch}/${scenario.directory}`,
    ...fixtureProtocolFlags(),
    ...(await scenario.extra?.(scratch) ?? []),
  ];
}

/** Every file a publish leaves behind when it does not finish: staging files and journals. */
async function leftovers(directory: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(directory)) {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory) found.push(...await leftovers(path));
    else if (/\.(staging|journal)$/.test(entry.name)) found.push(path);
  }
  return found;
}

async function presentOutputs(scenario: Scenario, directory: string): Promise<string[]> {
  const present: string[] = [];
  for (const name of scenario.outputs) {
    try {
      await Deno.lstat(`${directory}/${name}`);
      present.push(name);
    } catch {
      // absent
    }
  }
  return present;
}

interface Outcome {
  code: number;
  stderr: string;
  /** The outputs present just after the signal, before any rerun. */
  present: string[];
  leftovers: string[];
}

/** Runs the command, holds it before the `nth` `operation`, sends `signal` there and lets it go on. */
async function signalled(
  scenario: Scenario,
  scratch: string,
  signal: Signal,
  at: string,
  options: { flags?: string[]; env?: Record<string, string> } = {},
): Promise<Outcome> {
  const directory = `${scratch}/${scenario.directory}`;
  await scenario.setup?.(directory);
  const ready = `${scratch}/ready`;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...(options.flags ?? taskFlags("cli")),
      SIGNAL_CLI,
      at,
      ready,
      "--",
      ...await commandArgs(scenario, scratch),
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...options.env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      await Deno.lstat(ready);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  child.kill(signal);
  // The signal is taken in by a thread of the runtime and reaches the program at its next turn: give it time.
  await new Promise((resolve) => setTimeout(resolve, 50));
  await Deno.remove(ready);
  const output = await child.output();
  return {
    code: output.code,
    stderr: new TextDecoder().decode(output.stderr),
    present: await presentOutputs(scenario, directory),
    leftovers: signal === "SIGKILL" ? [] : await leftovers(scratch),
  };
}

const EXIT = { SIGINT: 130, SIGTERM: 143, SIGKILL: 137 } as const;

async function assertRerunIsClean(scenario: Scenario, scratch: string): Promise<void> {
  const directory = `${scratch}/${scenario.directory}`;
  const rerun = await runCli(await commandArgs(scenario, scratch), CLI);
  assertEquals(rerun.code, 0, `the rerun: ${rerun.stderr}`);
  assertEquals(await presentOutputs(scenario, directory), [...scenario.outputs]);
  await scenario.clean(directory);
  assertEquals(await leftovers(scratch), [], "a staging or journal file outlived the rerun");
}

for (const scenario of [RUN_POLICY, GRADE_QA]) {
  for (const signal of ["SIGINT", "SIGTERM", "SIGKILL"] as const) {
    Deno.test(`${scenario.command}: ${signal} at each of the three links leaves all or none, and the rerun works`, async () => {
      await Promise.all([1, 2, 3].map((nth) =>
        withTempDir(async (scratch) => {
          const outcome = await signalled(scenario, scratch, signal, `link:${nth}`);
          const report = `${signal} at link ${nth}: exit ${outcome.code}, ${outcome.stderr}`;
          assertEquals(outcome.code, EXIT[signal], report);
          if (signal !== "SIGKILL") {
            // Undone before the program ends: none of the files, nothing staged, one line.
            assertEquals(outcome.present, [], report);
            assertEquals(outcome.leftovers, [], report);
            assertMatch(
              outcome.stderr,
              new RegExp(
                `^deermem-eval ${scenario.command}: interrupted by ${signal} while publishing \\S+(?:, \\S+){2,}: ` +
                  `nothing was published; run the same command again\\n$`,
              ),
            );
          }
          await assertRerunIsClean(scenario, scratch);
        })
      ));
    });
  }
}

Deno.test("grade-qa on three runs: SIGINT or SIGTERM in run 2's or run 3's links leaves no run graded; after SIGKILL the rerun grades all three", async () => {
  const cases = [["SIGINT", "link:5"], ["SIGTERM", "link:8"], ["SIGKILL", "link:5"]] as const;
  await Promise.all(cases.map(([signal, at]) =>
    withTempDir(async (scratch) => {
      const outcome = await signalled(GRADE_QA_THREE_RUNS, scratch, signal, at);
      const report = `${signal} at ${at}: exit ${outcome.code}, ${outcome.stderr}`;
      assertEquals(outcome.code, EXIT[signal], report);
      if (signal !== "SIGKILL") {
        assertEquals(outcome.present, [], report);
        assertEquals(outcome.leftovers, [], report);
        assertStringIncludes(outcome.stderr, "nothing was published; run the same command again", report);
      }
      await assertRerunIsClean(GRADE_QA_THREE_RUNS, scratch);
    })
  ));
});

Deno.test("sweep: a signal while its rows stream to their staging file leaves nothing behind", async () => {
  await Promise.all(
    (["SIGTERM", "SIGKILL"] as const).flatMap((signal) =>
      ["write:1", "write:2"].map((at) =>
        withTempDir(async (scratch) => {
          const outcome = await signalled(SWEEP, scratch, signal, at);
          assertEquals(outcome.code, EXIT[signal], `${signal} at ${at}: ${outcome.stderr}`);
          assertEquals(outcome.present, []);
          assertEquals(outcome.leftovers, []);
          await assertRerunIsClean(SWEEP, scratch);
        })
      )
    ),
  );
});

Deno.test("outside a publish a signal ends the program as before: no handler is left installed", async () => {
  await withTempDir(async (scratch) => {
    // The output directory is created just before the publish begins: hold the program there.
    const outcome = await signalled(RUN_POLICY, scratch, "SIGTERM", "mkdir:1");
    assertEquals(outcome.code, 143);
    assertEquals(outcome.stderr, "");
    assert(outcome.present.length === 0);
  });
});

const RUN_QA: Scenario = {
  command: "run-qa",
  directory: "run",
  outputs: ["qa_run.json"],
  clean: async () => {},
};

Deno.test("run-qa: SIGTERM while a row is published undoes that row (143, one line); Ctrl-C stays run-qa's graceful stop", async () => {
  const server = startAnswerServer(() => completion("x"));
  const options = {
    flags: taskFlags("run-qa"),
    env: { DEERMEM_EVAL_ANSWER_API_KEY: "sk-test", DEERMEM_EVAL_ANSWER_BASE_URL: server.url },
  };
  try {
    await withTempDir(async (scratch) => {
      // The 7th link: the marker's, run_kind.json's, reuse.json's (the endpoint), three rows', then this row's.
      const terminated = await signalled(RUN_QA, scratch, "SIGTERM", "link:7", options);
      assertEquals(terminated.code, 143, terminated.stderr);
      assertMatch(
        terminated.stderr,
        /^deermem-eval run-qa: interrupted by SIGTERM while publishing \S+\.json: nothing was published; run the same command again\n$/m,
      );
      assertEquals(terminated.leftovers, []);
      assertEquals(await presentOutputs({ ...RUN_QA, outputs: ["run-qa.lock"] }, `${scratch}/run`), []);
      await Deno.remove(`${scratch}/run`, { recursive: true });
      const interrupted = await signalled(RUN_QA, scratch, "SIGINT", "link:7", options);
      assertEquals(interrupted.code, 130, interrupted.stderr);
      assertStringIncludes(interrupted.stderr, "interrupted: stopping; rows already written stay valid");
      assertEquals(interrupted.leftovers, []);
      const rows = [...Deno.readDirSync(`${scratch}/run/responses`)].filter((entry) =>
        entry.name.endsWith(".json")
      );
      assert(rows.length >= 4, `${rows.length} rows`); // the held row was published, not undone
    });
  } finally {
    await server.close();
  }
});

Deno.test("run-qa: SIGKILL while a row is published, then the same command resumes in one run (every row, nothing left over)", async () => {
  const server = startAnswerServer(() => completion("x"));
  const options = {
    flags: taskFlags("run-qa"),
    env: { DEERMEM_EVAL_ANSWER_API_KEY: "sk-test", DEERMEM_EVAL_ANSWER_BASE_URL: server.url },
  };
  try {
    await withTempDir(async (scratch) => {
      // The 5th link: the marker's, then three rows', then this row's (staged and journalled, not yet linked).
      const killed = await signalled(RUN_QA, scratch, "SIGKILL", "link:5", options);
      assertEquals(killed.code, EXIT.SIGKILL, killed.stderr);
      const rerun = await runCli(await commandArgs(RUN_QA, scratch), options);
      assertEquals(rerun.code, 0, `the rerun: ${rerun.stderr}`);
      const rows = [...Deno.readDirSync(`${scratch}/run/responses`)].filter((entry) =>
        entry.name.endsWith(".json")
      );
      assertEquals(rows.length, 90);
      assertEquals(await leftovers(scratch), [], "a staging or journal file outlived the rerun");
    });
  } finally {
    await server.close();
  }
});
