// Hostile inputs at their caps, one CLI process each, run as the tasks run it: prints per input the exit code,
// the peak resident memory (`/usr/bin/time -f %M`, or the process's VmHWM from /proc where `time` is missing),
// the wall time and the one line the command printed. Goal (a figure to read, not a test): no command above
// 1 GB on any input within its caps, and every one ends in one line. Run: deno task bench:hostile
import denoConfig from "../deno.json" with { type: "json" };
import {
  CONTRACT_CAP,
  DATASET_CAP,
  GRADED_ROWS_CAP,
  INPUT_CAP,
  MIB,
  SWEEP_OUTPUT_CAP,
  VECTOR_CAP,
} from "../lib/base/read.ts";
import { sha256Hex } from "../lib/base/hash.ts";
import { LOCK_FILE } from "../lib/base/lock.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const GOLDEN = `${ROOT}tests/golden`;
const PROTOCOL = `${GOLDEN}/fixture/protocol`;
const DATASET = `${GOLDEN}/fixture/longmemeval-fixture.json`;
const PROTOCOL_FLAGS = [
  "--config",
  `${PROTOCOL}/config.yaml`,
  "--official-manifest",
  `${PROTOCOL}/official.json`,
  "--synthetic-manifest",
  `${PROTOCOL}/synthetic.json`,
];
const GOAL_KB = 1_000_000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The permission flags of a deno.json task, as the tests take them (tests/helpers/cli.ts). */
function taskFlags(task: string): string[] {
  const command: string = denoConfig.tasks[task as keyof typeof denoConfig.tasks];
  const words = command.split(/\s+/);
  return words.slice(words.indexOf("run") + 1, words.indexOf("cli.ts")).filter((word) =>
    word.startsWith("--")
  );
}

const HAS_TIME = await Deno.stat("/usr/bin/time").then(() => true, () => false);

interface Measured {
  code: number;
  peakKb: number;
  seconds: number;
  line: string;
}

/** The process's peak RSS by /proc polling: VmHWM only grows, so the last reading before exit is the peak. */
async function pollPeak(child: Deno.ChildProcess): Promise<number> {
  let peak = 0;
  let done = false;
  child.status.then(() => done = true);
  while (!done) {
    try {
      const status = await Deno.readTextFile(`/proc/${child.pid}/status`);
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {
      // Gone between the check and the read.
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return peak;
}

async function measure(task: string, args: string[], env: Record<string, string> = {}): Promise<Measured> {
  const deno = [Deno.execPath(), "run", ...taskFlags(task), `${ROOT}cli.ts`, ...args];
  const [command, ...rest] = HAS_TIME ? ["/usr/bin/time", "-f", "PEAK %M", ...deno] : deno;
  const started = performance.now();
  const child = new Deno.Command(command, {
    args: rest,
    cwd: ROOT,
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const polled = HAS_TIME ? Promise.resolve(0) : pollPeak(child);
  const output = await child.output();
  const seconds = (performance.now() - started) / 1000;
  let stderr = decoder.decode(output.stderr).split("\n").filter((line) => line !== "");
  let peakKb = await polled;
  if (HAS_TIME) {
    const peak = stderr.findLast((line) => line.startsWith("PEAK "));
    peakKb = Number(peak?.slice(5) ?? 0);
    stderr = stderr.filter((line) =>
      line !== peak && !line.startsWith("Command exited with non-zero status")
    );
  }
  const stdout = decoder.decode(output.stdout).split("\n").filter((line) => line !== "");
  const lines = stderr.length > 0 ? stderr : stdout.slice(-1);
  const line = (stderr.length > 1 ? `[${stderr.length} lines] ` : "") + (lines[0] ?? "");
  return { code: output.code, peakKb, seconds, line };
}

/** Writes `count` copies of `item` joined by `separator` inside `open`/`close`, in chunks (never held whole). */
async function writeRepeated(
  path: string,
  open: string,
  item: string,
  separator: string,
  close: string,
  size: number,
): Promise<void> {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const count = Math.floor(
    (size - open.length - close.length + separator.length) / (item.length + separator.length),
  );
  const perChunk = 1 << 16;
  await file.write(encoder.encode(open));
  for (let written = 0; written < count; written += perChunk) {
    const n = Math.min(perChunk, count - written);
    const chunk = Array(n).fill(item).join(separator) + (written + n < count ? separator : "");
    await file.write(encoder.encode(chunk));
  }
  await file.write(encoder.encode(close));
  file.close();
}

async function copyRun(directory: string): Promise<void> {
  await Deno.mkdir(`${directory}/responses`, { recursive: true });
  await Deno.copyFile(`${GOLDEN}/fixture-run/qa/qa_run.json`, `${directory}/qa_run.json`);
  for await (const entry of Deno.readDir(`${GOLDEN}/fixture-run/qa/responses`)) {
    await Deno.copyFile(
      `${GOLDEN}/fixture-run/qa/responses/${entry.name}`,
      `${directory}/responses/${entry.name}`,
    );
  }
}

/** Every answer row's prediction replaced by `bytes` of text (valid rows, as run-qa writes them). */
async function longAnswers(directory: string, bytes: number): Promise<void> {
  const prediction = "word ".repeat(Math.ceil(bytes / 5)).slice(0, bytes);
  for await (const entry of Deno.readDir(`${directory}/responses`)) {
    const path = `${directory}/responses/${entry.name}`;
    const text = await Deno.readTextFile(path);
    await Deno.writeTextFile(
      path,
      text.replace(/"prediction": "(?:[^"\\]|\\.)*"/, `"prediction": "${prediction}"`),
    );
  }
}

/** A dataset of the fixture's rows repeated (fresh ids) to about `size` bytes, and a config pinning it. */
async function bigDataset(directory: string, size: number): Promise<{ dataset: string; config: string }> {
  const rows = JSON.parse(await Deno.readTextFile(DATASET)) as Record<string, unknown>[];
  const dataset = `${directory}/dataset.json`;
  const file = await Deno.open(dataset, { write: true, create: true, truncate: true });
  const parts: Uint8Array[] = [];
  let written = 0;
  parts.push(encoder.encode("["));
  for (let copy = 0; written < size - 200_000; copy++) {
    const chunk = rows.map((row) =>
      JSON.stringify(copy === 0 ? row : { ...row, question_id: `${row.question_id}_copy${copy}` })
    ).join(", ");
    const bytes = encoder.encode((copy === 0 ? "" : ", ") + chunk);
    parts.push(bytes);
    written += bytes.length;
  }
  parts.push(encoder.encode("]"));
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) all.set(part, (at += part.length) - part.length);
  await file.write(all);
  file.close();
  const config = `${directory}/config.yaml`;
  const text = await Deno.readTextFile(`${PROTOCOL}/config.yaml`);
  await Deno.writeTextFile(
    config,
    text.replace(/sha256: [0-9a-f]{64}\n/, `sha256: ${await sha256Hex(all)}\n`),
  );
  return { dataset, config };
}

/**
 * A dataset that prepares the fixture's cases, padded to about `size` bytes: the fixture's rows, then copies of
 * them under a type no selection takes (multi-session) and ids after every real one; and a config pinning it.
 */
async function paddedDataset(directory: string, size: number): Promise<{ dataset: string; config: string }> {
  const rows = JSON.parse(await Deno.readTextFile(DATASET)) as Record<string, unknown>[];
  const parts: Uint8Array[] = [encoder.encode("[" + rows.map((row) => JSON.stringify(row)).join(", "))];
  let written = parts[0].length;
  for (let copy = 1; written < size - 200_000; copy++) {
    const chunk = rows.map((row) =>
      JSON.stringify({
        ...row,
        question_type: "multi-session",
        question_id: `zz_pad${copy}_${row.question_id}`,
      })
    ).join(", ");
    const bytes = encoder.encode(", " + chunk);
    parts.push(bytes);
    written += bytes.length;
  }
  parts.push(encoder.encode("]"));
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) all.set(part, (at += part.length) - part.length);
  const dataset = `${directory}/dataset.json`;
  await Deno.writeFile(dataset, all);
  const config = `${directory}/config.yaml`;
  const text = await Deno.readTextFile(`${PROTOCOL}/config.yaml`);
  await Deno.writeTextFile(
    config,
    text.replace(/sha256: [0-9a-f]{64}\n/, `sha256: ${await sha256Hex(all)}\n`),
  );
  return { dataset, config };
}

/** `sweep` of the fixture into D/out over the grid in D/grid.yaml. */
function sweepWithGrid(d: string): string[] {
  return [
    "sweep",
    "--dataset",
    DATASET,
    "--output-dir",
    `${d}/out`,
    "--grid",
    `${d}/grid.yaml`,
    ...PROTOCOL_FLAGS,
  ];
}

function manifestFlags(config: string): string[] {
  return [
    "--config",
    config,
    "--official-manifest",
    `${PROTOCOL}/official.json`,
    "--synthetic-manifest",
    `${PROTOCOL}/synthetic.json`,
  ];
}

/** The padded dataset of D and the config pinning it. */
function bigFlags(d: string): string[] {
  return ["--dataset", `${d}/dataset.json`, ...manifestFlags(`${d}/config.yaml`)];
}

interface Input {
  name: string;
  /** The directory the input is made in, shared by a later input that reads what this one wrote. */
  dir: string;
  task?: string;
  prepare?: (directory: string) => Promise<void>;
  args: (directory: string) => string[];
  env?: Record<string, string>;
}

const baseConfig = await Deno.readTextFile(`${PROTOCOL}/config.yaml`);
const configWith = (path: string, size: number) => {
  const [before, after] = baseConfig.split("capacities: [5, 7, 9]");
  const room = size - before.length - after.length - "capacities: [5, 7, 9]".length;
  return writeRepeated(
    path,
    `${before}capacities: [`,
    "1",
    ",",
    `5, 7, 9]${after}`,
    before.length + after.length + room,
  );
};

const root = await Deno.makeTempDir({ prefix: "deermem-hostile-" });

const INPUTS: Input[] = [
  {
    name: `config at its ${CONTRACT_CAP / 1024} KiB cap: capacities [1,1,…]`,
    dir: "contract-cap",
    prepare: (d) => configWith(`${d}/config.yaml`, CONTRACT_CAP),
    args: (d) => ["validate-contracts", "--config", `${d}/config.yaml`],
  },
  {
    name: `config of ${INPUT_CAP / MIB} MiB (the old cap): capacities [1,1,…]`,
    dir: "old-cap",
    prepare: (d) => configWith(`${d}/config.yaml`, INPUT_CAP),
    args: (d) => ["validate-contracts", "--config", `${d}/config.yaml`],
  },
  {
    name: `official manifest at its cap: [{},{},…]`,
    dir: "manifest",
    prepare: (d) => writeRepeated(`${d}/official.json`, "[", "{}", ",", "]", CONTRACT_CAP),
    args: (d) => ["validate-contracts", "--official-manifest", `${d}/official.json`],
  },
  {
    name: `8 answer rows at the ${INPUT_CAP / MIB} MiB row cap: [{},{},…] — run-qa resumes (dry run)`,
    dir: "resume",
    task: "run-qa",
    prepare: async (d) => {
      await copyRun(`${d}/run`);
      let count = 0;
      for await (const entry of Deno.readDir(`${d}/run/responses`)) {
        if (count++ < 8) {
          await writeRepeated(`${d}/run/responses/${entry.name}`, "[", "{}", ",", "]", INPUT_CAP);
        }
      }
    },
    args: (d) => ["run-qa", "--dry-run", "--dataset", DATASET, "--output-dir", `${d}/run`, ...PROTOCOL_FLAGS],
  },
  {
    name: `the same 8 rows — grade-qa`,
    dir: "resume-grade",
    prepare: async (d) => {
      await copyRun(`${d}/run`);
      let count = 0;
      for await (const entry of Deno.readDir(`${d}/run/responses`)) {
        if (count++ < 8) {
          await writeRepeated(`${d}/run/responses/${entry.name}`, "[", "{}", ",", "]", INPUT_CAP);
        }
      }
    },
    args: (d) => ["grade-qa", "--dataset", DATASET, "--output-dir", `${d}/run`, ...PROTOCOL_FLAGS],
  },
  {
    name: `90 valid answers of 1.4 MB (the rows just under the ${
      GRADED_ROWS_CAP / MIB
    } MiB total) — grade-qa`,
    dir: "long-answers",
    prepare: async (d) => {
      await copyRun(`${d}/run`);
      await longAnswers(`${d}/run`, Math.floor(GRADED_ROWS_CAP / 90) - 4096);
    },
    args: (d) => ["grade-qa", "--dataset", DATASET, "--output-dir", `${d}/run`, ...PROTOCOL_FLAGS],
  },
  {
    name: `… and verify on the qa.rows.jsonl it wrote`,
    dir: "long-answers",
    args: (d) => ["verify", `${d}/run`, "--dataset", DATASET, ...PROTOCOL_FLAGS],
  },
  {
    name: `… and report on it`,
    dir: "long-answers",
    args: (d) => ["report", `${d}/run`, ...PROTOCOL_FLAGS],
  },
  {
    name: `90 valid answers of 4 MB (bodies at their cap) — grade-qa refuses at the total`,
    dir: "body-cap",
    prepare: async (d) => {
      await copyRun(`${d}/run`);
      await longAnswers(`${d}/run`, 4 * MIB - 4096);
    },
    args: (d) => ["grade-qa", "--dataset", DATASET, "--output-dir", `${d}/run`, ...PROTOCOL_FLAGS],
  },
  {
    name: `qa.rows.jsonl at its ${GRADED_ROWS_CAP / MIB} MiB cap: lines of [{},{},…] — verify`,
    dir: "rows-cap",
    prepare: async (d) => {
      await Deno.mkdir(`${d}/run`);
      for (const name of ["qa.summary.json", "qa.stats.json", "qa_run.json"]) {
        await Deno.copyFile(`${GOLDEN}/fixture-run/qa/${name}`, `${d}/run/${name}`);
      }
      await writeRepeated(
        `${d}/run/qa.rows.jsonl`,
        "",
        `[${Array(1000).fill("{}").join(",")}]`,
        "\n",
        "\n",
        GRADED_ROWS_CAP,
      );
    },
    args: (d) => ["verify", `${d}/run`, ...PROTOCOL_FLAGS],
  },
  {
    name: `a dataset at its ${
      DATASET_CAP / MIB
    } MiB cap, pinned (the fixture's rows repeated: parsed, then refused by the selection) — validate`,
    dir: "dataset",
    prepare: async (d) => void await bigDataset(d, DATASET_CAP),
    args: (d) => ["validate", "--dataset", `${d}/dataset.json`, ...manifestFlags(`${d}/config.yaml`)],
  },
  {
    name: `a dataset at its cap, not the pinned one — validate`,
    dir: "dataset",
    args: (d) => ["validate", "--dataset", `${d}/dataset.json`, ...PROTOCOL_FLAGS],
  },
  {
    name: `a dataset of [{},{},…] at its cap, pinned — validate`,
    dir: "empty-dataset",
    prepare: async (d) => {
      const dataset = `${d}/dataset.json`;
      await writeRepeated(dataset, "[", "{}", ",", "]", DATASET_CAP);
      const digest = await sha256Hex(await Deno.readFile(dataset));
      await Deno.writeTextFile(
        `${d}/config.yaml`,
        baseConfig.replace(/sha256: [0-9a-f]{64}\n/, `sha256: ${digest}\n`),
      );
    },
    args: (d) => ["validate", "--dataset", `${d}/dataset.json`, ...manifestFlags(`${d}/config.yaml`)],
  },
  {
    name: "a --grid of step 0.01 and 200 × 200 half-lives — sweep",
    dir: "big-grid",
    prepare: async (d) => {
      const days = `[${Array.from({ length: 200 }, (_, index) => index + 1).join(", ")}]`;
      await Deno.writeTextFile(
        `${d}/grid.yaml`,
        `weights_step: 0.01\nconfirmation_half_life_days: ${days}\naccess_half_life_days: ${days}\n`,
      );
    },
    args: sweepWithGrid,
  },
  {
    name: "a --grid at the bound (83,160 points) — sweep",
    dir: "grid-bound",
    prepare: (d) =>
      Deno.writeTextFile(
        `${d}/grid.yaml`,
        "confirmation_half_life_days: [1, 2, 3]\naccess_half_life_days: [1, 2, 3, 4, 5, 6]\n",
      ),
    args: sweepWithGrid,
  },
  {
    name: "… and report on its sweep",
    dir: "grid-bound",
    args: (d) => ["report", `${d}/out`, ...PROTOCOL_FLAGS],
  },
  {
    name: `sweep.jsonl at its ${SWEEP_OUTPUT_CAP / MIB} MiB cap of [{},{},…] lines — report`,
    dir: "sweep-cap",
    prepare: async (d) => {
      await Deno.mkdir(`${d}/out`);
      await Deno.copyFile(`${root}/grid-bound/out/sweep.json`, `${d}/out/sweep.json`);
      await writeRepeated(
        `${d}/out/sweep.jsonl`,
        "",
        `[${Array(1000).fill("{}").join(",")}]`,
        "\n",
        "\n",
        SWEEP_OUTPUT_CAP,
      );
    },
    args: (d) => ["report", `${d}/out`, ...PROTOCOL_FLAGS],
  },
  {
    name: `two inputs each within its cap: a pinned dataset of ${
      DATASET_CAP / MIB - 1
    } MiB that prepares, and 90 answers of 0.97 MB (87 MB of rows) — grade-qa`,
    dir: "both",
    prepare: async (d) => {
      const { dataset, config } = await paddedDataset(d, DATASET_CAP - MIB);
      await copyRun(`${d}/run`);
      await longAnswers(`${d}/run`, 970_000);
      // The run as made under the padded dataset's config: the marker names both.
      const marker = `${d}/run/qa_run.json`;
      const hashes = [
        await sha256Hex(await Deno.readFile(config)),
        await sha256Hex(await Deno.readFile(dataset)),
      ];
      const text = (await Deno.readTextFile(marker))
        .replace(/"config_sha256": "[0-9a-f]{64}"/, `"config_sha256": "${hashes[0]}"`)
        .replaceAll(
          /"(dataset_)?sha256": "cd5c[0-9a-f]{60}"/g,
          (_, prefix) => `"${prefix ?? ""}sha256": "${hashes[1]}"`,
        );
      await Deno.writeTextFile(marker, text);
    },
    args: (d) => ["grade-qa", ...bigFlags(d), "--output-dir", `${d}/run`],
  },
  {
    name: "… verify --dataset on it",
    dir: "both",
    args: (d) => ["verify", `${d}/run`, ...bigFlags(d)],
  },
  {
    name: "… report --json --dataset",
    dir: "both",
    args: (d) => ["report", `${d}/run`, "--json", ...bigFlags(d)],
  },
  {
    name: "… report --html --dataset",
    dir: "both",
    args: (d) => ["report", `${d}/run`, "--html", `${d}/report.html`, ...bigFlags(d)],
  },
  {
    name: "… report --against itself --dataset",
    dir: "both",
    args: (d) => ["report", `${d}/run`, "--against", `${d}/run`, ...bigFlags(d)],
  },
  {
    name: `a vector file at its ${VECTOR_CAP / MIB} MiB cap — conformance`,
    dir: "vectors",
    prepare: async (d) => {
      await Deno.mkdir(`${d}/vectors`);
      await writeRepeated(
        `${d}/vectors/libm.jsonl`,
        "",
        '{"fn": "log1p", "x": 1.0, "expected": 1.0}',
        "\n",
        "\n",
        VECTOR_CAP,
      );
    },
    args: (d) => ["conformance", `${d}/vectors`],
  },
  {
    name: `${LOCK_FILE} a symlink — run-qa`,
    dir: "lock",
    task: "run-qa",
    prepare: async (d) => {
      await copyRun(`${d}/run`);
      await Deno.symlink(`${d}/run/qa_run.json`, `${d}/run/${LOCK_FILE}`);
    },
    args: (d) => ["run-qa", "--dataset", DATASET, "--output-dir", `${d}/run`, ...PROTOCOL_FLAGS],
    env: { DEERMEM_EVAL_ANSWER_API_KEY: "sk-bench", DEERMEM_EVAL_ANSWER_BASE_URL: "http://127.0.0.1:9/v1" },
  },
];

try {
  console.log(
    `peak RSS by ${HAS_TIME ? "/usr/bin/time -f %M" : "/proc VmHWM polling"}; goal: under 1 GB each`,
  );
  let over = 0;
  // An argument keeps the inputs whose name holds it, and those they share a directory with (run in order).
  const only = Deno.args[0];
  const dirs = new Set(
    INPUTS.filter((input) => only === undefined || input.name.includes(only)).map((i) => i.dir),
  );
  for (const input of INPUTS.filter((item) => dirs.has(item.dir))) {
    const directory = `${root}/${input.dir}`;
    await Deno.mkdir(directory, { recursive: true });
    await input.prepare?.(directory);
    const result = await measure(input.task ?? "cli", input.args(directory), input.env);
    if (result.peakKb > GOAL_KB) over++;
    const mb = (result.peakKb / 1000).toFixed(0).padStart(5);
    console.log(
      `${input.name}\n  exit ${result.code}, ${mb} MB, ${result.seconds.toFixed(1)} s: ${result.line}`,
    );
  }
  console.log(over === 0 ? "every input under 1 GB" : `${over} input(s) over 1 GB`);
} finally {
  await Deno.remove(root, { recursive: true });
}
