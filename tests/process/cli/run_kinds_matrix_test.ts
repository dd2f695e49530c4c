/**
 * Every run kind through every reader: each cell of {policy run, module policy run, QA run, candidate QA run with
 * each baseline, K-run directory, sweep, demo directory, the published run} × {verify, verify --json, report as text, Markdown,
 * HTML and JSON, explain, --against the published run, --against a run of the same protocol} either succeeds and
 * names the run's own policies (never "undefined", "NaN" or a policy the run did not answer), or is refused in
 * one line that says why; every JSON document validates against the shipped schema. The cells are generated
 * from the kinds' and readers' properties; which cells refuse is a rule below, not a list.
 */

import { assert, assertEquals } from "../../helpers/assert.ts";
import { completion, startAnswerServer } from "../../helpers/answer_server.ts";
import {
  type CliResult,
  fixtureProtocolFlags,
  ROOT,
  runCli,
  taskFlags,
  withTempDir,
} from "../../helpers/cli.ts";
import { demoCaseId, FIXTURE_DATASET, REFERENCE_QA } from "../../helpers/fixture.ts";
import { documentProblems } from "../../helpers/json_schema.ts";

const RECENCY = `${ROOT}tests/fixtures/policies/recency.ts`;
const PUBLISHED = `${ROOT}results/pr4789-reproduction-v1`;
const CLI = { flags: taskFlags("cli") };
const ALL_POLICIES = ["confidence", "hybrid-v1", "recency"];

interface RunKind {
  name: string;
  directory: string;
  /** The policies the run answered, in the order its reports name them. */
  policies: string[];
  /** Flags every reader of this run needs: the protocol it was made under (when not found), its module. */
  flags: string[];
  /** A case of its protocol, for explain; the dataset when it is here. */
  caseId: string;
  dataset?: string;
  /** The run keeps its protocol and dataset (the demo's): readers find both with no flag. */
  datasetKept?: boolean;
  shape: "policy" | "qa" | "sweep";
  /** Another run of the same protocol and shape, for `--against`. */
  sibling?: string;
}

interface Reader {
  name: string;
  args(kind: RunKind): string[];
  /** Why this reader refuses this kind, or undefined when it must succeed. */
  refuses(kind: RunKind): string | undefined;
  json?: boolean;
  /** It may also name policies beyond the run's own: another run's, or every policy it recomputes. */
  namesOthers?: boolean;
}

const FIXTURE_CASE = "05fdf179";

const READERS: Reader[] = [
  { name: "verify", args: (kind) => ["verify", kind.directory, ...kind.flags], refuses: () => undefined },
  {
    name: "verify --json",
    args: (kind) => ["verify", kind.directory, "--json", ...kind.flags],
    refuses: () => undefined,
    json: true,
  },
  { name: "report", args: (kind) => ["report", kind.directory, ...kind.flags], refuses: () => undefined },
  ...["--markdown", "--html"].map((flag): Reader => ({
    name: `report ${flag} -`,
    args: (kind) => ["report", kind.directory, flag, "-", ...kind.flags],
    refuses: () => undefined,
  })),
  {
    name: "report --json",
    args: (kind) => ["report", kind.directory, "--json", ...kind.flags],
    refuses: () => undefined,
    json: true,
  },
  {
    name: "explain",
    args: (kind) => [
      "explain",
      kind.caseId,
      "--output-dir",
      kind.directory,
      ...(kind.dataset ? ["--dataset", kind.dataset] : []),
      ...kind.flags,
    ],
    refuses: (kind) =>
      kind.shape === "sweep"
        ? "a sweep holds no case"
        : kind.shape === "policy"
        ? "--output-dir reads a QA run's answers"
        : kind.dataset === undefined && !kind.datasetKept
        ? "the dataset is not here"
        : undefined,
    namesOthers: true,
  },
  {
    name: "--against published",
    args: (kind) => ["report", kind.directory, "--against", PUBLISHED, ...kind.flags],
    refuses: (kind) =>
      kind.shape !== "qa"
        ? "the published run is a QA run"
        : kind.name !== "published"
        ? "no case in common"
        : undefined,
    namesOthers: true,
  },
  {
    name: "--against same protocol",
    args: (kind) => ["report", kind.directory, "--against", kind.sibling ?? kind.directory, ...kind.flags],
    refuses: (kind) => kind.shape === "sweep" ? "a sweep compares with no run" : undefined,
    namesOthers: true,
  },
];

function answerServer() {
  return startAnswerServer((request) => {
    const text = JSON.stringify(request.body.messages);
    return completion(/week/i.test(text) ? "7 weeks" : "INSUFFICIENT");
  });
}

async function buildKinds(directory: string, baseUrl: string): Promise<RunKind[]> {
  const fixture = { flags: fixtureProtocolFlags(), caseId: FIXTURE_CASE, dataset: FIXTURE_DATASET };
  const made = async (result: Promise<CliResult>) => {
    const ran = await result;
    assertEquals(ran.code, 0, ran.stderr);
  };
  const onFixture = (command: string, out: string, extra: string[] = [], env?: Record<string, string>) =>
    runCli(
      [command, "--dataset", FIXTURE_DATASET, "--output-dir", out, ...fixtureProtocolFlags(), ...extra],
      {
        flags: taskFlags(command === "run-qa" ? "run-qa" : "cli"),
        env,
      },
    );
  const module = ["--policy-module", RECENCY];
  const qaEnv = { DEERMEM_EVAL_ANSWER_API_KEY: "sk-matrix-test-1", DEERMEM_EVAL_ANSWER_BASE_URL: baseUrl };

  await made(onFixture("run-policy", `${directory}/policy`));
  await made(onFixture("run-policy", `${directory}/module-policy`, module));
  const qa = `${directory}/qa`;
  await Deno.mkdir(qa);
  for (const name of ["qa_run.json", "qa.rows.jsonl", "qa.summary.json", "qa.stats.json"]) {
    await Deno.copyFile(`${REFERENCE_QA}/${name}`, `${qa}/${name}`);
  }
  await Deno.mkdir(`${qa}/responses`);
  for await (const entry of Deno.readDir(`${REFERENCE_QA}/responses`)) {
    await Deno.copyFile(`${REFERENCE_QA}/responses/${entry.name}`, `${qa}/responses/${entry.name}`);
  }
  for (const baseline of ["confidence", "hybrid-v1"]) {
    const out = `${directory}/candidate-${baseline}`;
    await made(onFixture("run-qa", out, [...module, "--baseline", baseline], qaEnv));
    await made(onFixture("grade-qa", out, module));
  }
  const epochs = `${directory}/epochs`;
  await made(onFixture("run-qa", epochs, ["--epochs", "2"], qaEnv));
  await made(onFixture("grade-qa", epochs));
  const grid = `${directory}/grid.yaml`;
  await Deno.writeTextFile(
    grid,
    "weights_step: 0.5\nconfirmation_half_life_days: [90]\naccess_half_life_days: [30]\n" +
      "correction_reserved_fraction: [0.1]\ncorrection_reserved_max: [10]\ncapacities: [5, 7]\n",
  );
  await made(onFixture("sweep", `${directory}/sweep`, ["--grid", grid]));
  const demo = `${directory}/demo`;
  await made(runCli(["demo", "--output-dir", demo], { flags: taskFlags("demo") }));
  const demoCase = await demoCaseId(demo);

  return [
    {
      name: "policy run",
      directory: `${directory}/policy`,
      policies: ["confidence", "hybrid-v1"],
      shape: "policy",
      sibling: `${directory}/module-policy`,
      ...fixture,
    },
    {
      name: "module policy run",
      directory: `${directory}/module-policy`,
      policies: ALL_POLICIES,
      shape: "policy",
      sibling: `${directory}/policy`,
      ...fixture,
      flags: [...fixture.flags, ...module],
    },
    {
      name: "QA run",
      directory: qa,
      policies: ["confidence", "hybrid-v1"],
      shape: "qa",
      sibling: `${directory}/candidate-confidence`,
      ...fixture,
    },
    ...["confidence", "hybrid-v1"].map((baseline): RunKind => ({
      name: `candidate QA run against ${baseline}`,
      directory: `${directory}/candidate-${baseline}`,
      policies: [baseline, "recency"],
      shape: "qa",
      sibling: qa,
      ...fixture,
      flags: [...fixture.flags, ...module],
    })),
    {
      name: "K-run directory",
      directory: epochs,
      policies: ["confidence", "hybrid-v1"],
      shape: "qa",
      sibling: qa,
      ...fixture,
    },
    {
      name: "sweep",
      directory: `${directory}/sweep`,
      policies: ["confidence", "hybrid-v1"],
      shape: "sweep",
      ...fixture,
      flags: [],
    },
    {
      name: "demo directory",
      directory: demo,
      policies: ["confidence", "hybrid-v1"],
      shape: "qa",
      flags: [],
      datasetKept: true,
      caseId: demoCase,
    },
    {
      name: "published",
      directory: PUBLISHED,
      policies: ["confidence", "hybrid-v1"],
      shape: "qa",
      flags: [],
      caseId: "1cea1afa",
    },
  ];
}

/** What is wrong with one cell's result, or undefined when it is as the rules say. */
function judge(kind: RunKind, reader: Reader, result: CliResult): string | undefined {
  const refusal = reader.refuses(kind);
  const lines = result.stderr.trimEnd().split("\n").filter((line) => line !== "");
  if (refusal !== undefined) {
    if (result.code === 0) return `succeeded where it should refuse (${refusal})`;
    if (lines.length !== 1) return `refused in ${lines.length} lines: ${result.stderr}`;
    if (!/^deermem-eval [\w-]+: \S/.test(lines[0])) return `refusal is not one program line: ${lines[0]}`;
    if (result.stdout !== "") return `refused after printing ${result.stdout.split("\n").length} lines`;
    return undefined;
  }
  if (result.code !== 0) return `exit ${result.code}: ${result.stderr}${result.stdout.slice(0, 2000)}`;
  const out = result.stdout;
  if (reader.json) {
    let document: unknown;
    try {
      document = JSON.parse(out);
    } catch {
      return "not one JSON document";
    }
    // Every document is what the shipped schema says: the independent check and zod's own parse.
    const problems = documentProblems(reader.name.startsWith("report") ? "report" : "verify", document);
    if (problems.length > 0) return problems.slice(0, 3).join("; ");
  }
  for (const policy of kind.policies) if (!out.includes(policy)) return `never names ${policy}`;
  for (const word of ["undefined", "NaN"]) if (out.includes(word)) return `prints "${word}"`;
  for (
    const policy of reader.namesOthers ? [] : ALL_POLICIES.filter((name) => !kind.policies.includes(name))
  ) {
    // A name inside another word (confidence_control; confidence\_control in Markdown) is not the policy.
    if (new RegExp(`(?<![\\w-])${policy}(?![\\w\\\\-])`).test(out)) {
      return `names ${policy}, which the run did not answer`;
    }
  }
  return undefined;
}

Deno.test("every run kind through every reader: it succeeds naming its own policies, or refuses in one line", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      const kinds = await buildKinds(directory, server.url);
      const problems: string[] = [];
      const cells = kinds.flatMap((kind) => READERS.map((reader) => ({ kind, reader })));
      assertEquals(cells.length, 9 * 9);
      for (let start = 0; start < cells.length; start += 2) {
        await Promise.all(
          cells.slice(start, start + 2).map(async ({ kind, reader }) => {
            const problem = judge(kind, reader, await runCli(reader.args(kind), CLI));
            if (problem !== undefined) problems.push(`${kind.name} × ${reader.name}: ${problem}`);
          }),
        );
      }
      assertEquals(problems.sort(), []);
    });
  } finally {
    await server.close();
  }
});

Deno.test("the matrix's judge fails a cell that names a policy the run did not answer, or refuses in two lines", () => {
  const kind = {
    name: "k",
    directory: "d",
    policies: ["confidence", "recency"],
    flags: [],
    caseId: "c",
    shape: "qa",
  } as RunKind;
  const reader = READERS[2];
  assert(
    judge(kind, reader, { code: 0, stdout: "confidence recency hybrid-v1", stderr: "" })?.includes(
      "hybrid-v1",
    ),
  );
  assertEquals(judge(kind, reader, { code: 0, stdout: "confidence vs recency", stderr: "" }), undefined);
  const explain = READERS.find((candidate) => candidate.name === "explain")!;
  const refusal = judge({ ...kind, dataset: undefined }, explain, { code: 2, stdout: "", stderr: "a\nb\n" });
  assert(refusal?.startsWith("refused in 2 lines"));
});
