// Issue 29, item 2: every verdict is computed from the bytes that are shown. The CLI runs in-process with every
// way Deno opens a file watched: each file under a run directory must be opened once per command, and a file
// swapped for a forged one after its first open (between verify and render, as a rename loop does) must change
// nothing the command prints.

import { main } from "../../../cli.ts";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, GOLDEN, withTempDir } from "../../helpers/cli.ts";
import { copyReferenceRun, FIXTURE_DATASET, REFERENCE_QA } from "../../helpers/fixture.ts";

const QA_FILES = ["qa.rows.jsonl", "qa.summary.json", "qa.stats.json", "qa_run.json"];
const POLICY_RUN = `${GOLDEN}/fixture-run/policy`;
const POLICY_FILES = ["policy.raw.jsonl", "summary.json", "run.json"];

type OpenHook = (path: string, count: number) => void;

/**
 * Runs `body` with Deno's file-opening functions watched: `onOpen` sees each open of a path under `root` (with
 * how many times it was opened so far, this one included) before it happens; returns the counts.
 */
async function watchingOpens(
  root: string,
  onOpen: OpenHook,
  body: () => Promise<void>,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const see = (path: string | URL) => {
    const name = path instanceof URL ? path.pathname : path;
    if (!name.startsWith(`${root}/`)) return;
    const count = (counts.get(name) ?? 0) + 1;
    counts.set(name, count);
    onOpen(name, count);
  };
  const names = ["open", "openSync", "readFile", "readFileSync", "readTextFile", "readTextFileSync"] as const;
  // deno-lint-ignore no-explicit-any
  const deno = Deno as any;
  const originals = names.map((name) => deno[name]);
  names.forEach((name, index) => {
    deno[name] = (path: string | URL, ...rest: unknown[]) => {
      see(path);
      return originals[index].call(Deno, path, ...rest);
    };
  });
  try {
    await body();
  } finally {
    names.forEach((name, index) => deno[name] = originals[index]);
  }
  return counts;
}

interface Ran {
  code: number;
  out: string;
  err: string;
}

async function run(args: string[]): Promise<Ran> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env: () => undefined,
    document: (text) => out.push(text),
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** Copies the reference QA run's graded outputs (and, with `responses`, its answer rows) into `directory`. */
async function copyQaRun(directory: string, responses = false): Promise<void> {
  await Deno.mkdir(directory, { recursive: true });
  if (responses) await copyReferenceRun(directory);
  for (const name of QA_FILES) await Deno.copyFile(`${REFERENCE_QA}/${name}`, `${directory}/${name}`);
}

/** The reference rows with every grade made correct: valid structure, other figures. */
async function forgedRows(): Promise<Uint8Array> {
  const text = await Deno.readTextFile(`${REFERENCE_QA}/qa.rows.jsonl`);
  const forged = text.replaceAll('"grade_correct": false', '"grade_correct": true');
  assert(forged !== text);
  return new TextEncoder().encode(forged);
}

/** Correct answers per policy in the official suite, counted from the rows' own grades. */
async function officialCorrect(path: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const line of (await Deno.readTextFile(path)).trimEnd().split("\n")) {
    const row = JSON.parse(line);
    if (row.source === "longmemeval" && row.grade_correct) counts[row.policy] = (counts[row.policy] ?? 0) + 1;
  }
  return counts;
}

const datasetFlags = ["--dataset", FIXTURE_DATASET];

for (const withDataset of [false, true]) {
  Deno.test(
    `report --json${
      withDataset ? " --dataset" : ""
    }: qa.rows.jsonl swapped for a forged one after its first open changes nothing printed`,
    async () => {
      await withTempDir(async (root) => {
        const directory = `${root}/run`;
        await copyQaRun(directory);
        const args = [
          "report",
          directory,
          "--json",
          ...(withDataset ? datasetFlags : []),
          ...fixtureProtocolFlags(),
        ];
        const genuine = await run(args);
        assertEquals(genuine.code, 0, genuine.err);
        const official = JSON.parse(genuine.out).suites.find((suite: { name: string }) =>
          suite.name === "official"
        );
        assertEquals(official.correct, await officialCorrect(`${directory}/qa.rows.jsonl`));
        const forged = await forgedRows();
        const rows = `${directory}/qa.rows.jsonl`;
        const counts = await watchingOpens(root, (path, count) => {
          if (path === rows && count === 2) Deno.writeFileSync(rows, forged);
        }, async () => {
          const swapped = await run(args);
          assertEquals(swapped.code, 0, swapped.err);
          assertEquals(swapped.out, genuine.out);
        });
        assertEquals(counts.get(rows), 1);
      });
    },
  );
}

Deno.test("report --against: each side's qa.rows.jsonl swapped after its first open changes nothing printed", async () => {
  await withTempDir(async (root) => {
    await copyQaRun(`${root}/a`);
    await copyQaRun(`${root}/b`);
    const args = ["report", `${root}/a`, "--against", `${root}/b`, ...fixtureProtocolFlags()];
    const genuine = await run(args);
    assertEquals(genuine.code, 0, genuine.err);
    const forged = await forgedRows();
    const counts = await watchingOpens(root, (path, count) => {
      if (path.endsWith("/qa.rows.jsonl") && count === 2) Deno.writeFileSync(path, forged);
    }, async () => {
      const swapped = await run(args);
      assertEquals(swapped.code, 0, swapped.err);
      assertEquals(swapped.out, genuine.out);
    });
    assertEquals([counts.get(`${root}/a/qa.rows.jsonl`), counts.get(`${root}/b/qa.rows.jsonl`)], [1, 1]);
  });
});

Deno.test("report of a policy run: policy.raw.jsonl swapped after its first open changes nothing printed", async () => {
  await withTempDir(async (root) => {
    await Deno.mkdir(`${root}/run`);
    for (const name of POLICY_FILES) await Deno.copyFile(`${POLICY_RUN}/${name}`, `${root}/run/${name}`);
    const rows = `${root}/run/policy.raw.jsonl`;
    const text = await Deno.readTextFile(rows);
    const forged = new TextEncoder().encode(
      text.replaceAll('"support_all_retained": false', '"support_all_retained": true'),
    );
    const args = ["report", `${root}/run`, "--json", ...fixtureProtocolFlags()];
    const genuine = await run(args);
    assertEquals(genuine.code, 0, genuine.err);
    const counts = await watchingOpens(root, (path, count) => {
      if (path === rows && count === 2) Deno.writeFileSync(rows, forged);
    }, async () => {
      const swapped = await run(args);
      assertEquals(swapped.code, 0, swapped.err);
      assertEquals(swapped.out, genuine.out);
    });
    assertEquals(counts.get(rows), 1);
  });
});

/** Each command and the run directory it reads (made by `prepare` in a fresh temporary directory). */
const COMMANDS: {
  name: string;
  prepare: (root: string) => Promise<void>;
  args: (root: string) => string[];
}[] = [
  { name: "verify", prepare: (r) => copyQaRun(`${r}/run`), args: (r) => ["verify", `${r}/run`] },
  {
    name: "verify --dataset",
    prepare: (r) => copyQaRun(`${r}/run`),
    args: (r) => ["verify", `${r}/run`, ...datasetFlags],
  },
  {
    name: "report --dataset",
    prepare: (r) => copyQaRun(`${r}/run`),
    args: (r) => ["report", `${r}/run`, ...datasetFlags],
  },
  {
    name: "report --against --dataset",
    prepare: async (r) => {
      await copyQaRun(`${r}/run`);
      await copyQaRun(`${r}/other`);
    },
    args: (
      r,
    ) => [
      "report",
      `${r}/run`,
      "--against",
      `${r}/other`,
      "--markdown",
      `${r}/out/report.md`,
      ...datasetFlags,
    ],
  },
  {
    name: "verify of a policy run --dataset",
    prepare: (r) => copyPolicyRun(`${r}/run`),
    args: (r) => ["verify", `${r}/run`, ...datasetFlags],
  },
  {
    name: "report of a policy run --against",
    prepare: async (r) => {
      await copyPolicyRun(`${r}/run`);
      await copyPolicyRun(`${r}/other`);
    },
    args: (r) => ["report", `${r}/run`, "--against", `${r}/other`],
  },
  {
    name: "report of a sweep --dataset",
    prepare: (r) => smallSweep(r, `${r}/run`),
    args: (r) => ["report", `${r}/run`, "--html", `${r}/out/sweep.html`, ...datasetFlags],
  },
  {
    name: "verify of a sweep",
    prepare: (r) => smallSweep(r, `${r}/run`),
    args: (r) => ["verify", `${r}/run`],
  },
  {
    name: "explain --output-dir",
    prepare: (r) => copyQaRun(`${r}/run`),
    args: (r) => ["explain", "05fdf179", "--output-dir", `${r}/run`, ...datasetFlags],
  },
  {
    name: "grade-qa",
    prepare: async (r) => {
      await Deno.mkdir(`${r}/run`);
      await copyReferenceRun(`${r}/run`);
    },
    args: (r) => ["grade-qa", "--output-dir", `${r}/run`, ...datasetFlags],
  },
];

/** A small sweep of the fixture (one capacity, weights in halves) into `directory`, written by the CLI. */
async function smallSweep(root: string, directory: string): Promise<void> {
  await Deno.writeTextFile(`${root}/grid.yaml`, "weights_step: 0.5\ncapacities: [7]\n");
  const made = await run([
    "sweep",
    "--output-dir",
    directory,
    "--grid",
    `${root}/grid.yaml`,
    ...datasetFlags,
    ...fixtureProtocolFlags(),
  ]);
  assertEquals(made.code, 0, made.err);
}

async function copyPolicyRun(directory: string): Promise<void> {
  await Deno.mkdir(directory, { recursive: true });
  for (const name of POLICY_FILES) await Deno.copyFile(`${POLICY_RUN}/${name}`, `${directory}/${name}`);
}

for (const command of COMMANDS) {
  Deno.test(`${command.name}: each file under the run directories is opened once`, async () => {
    await withTempDir(async (root) => {
      await command.prepare(root);
      await Deno.mkdir(`${root}/out`, { recursive: true });
      let ran: Ran | undefined;
      const counts = await watchingOpens(root, () => {}, async () => {
        ran = await run([...command.args(root), ...fixtureProtocolFlags()]);
      });
      assertEquals(ran!.code, 0, ran!.err);
      assert(counts.size > 0);
      const twice = [...counts].filter(([path, count]) => count > 1 && !path.startsWith(`${root}/out/`));
      assertEquals(twice.map(([path, count]) => `${path.slice(root.length)} ${count}`), []);
    });
  });
}
