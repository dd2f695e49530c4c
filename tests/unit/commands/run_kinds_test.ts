/** The run-kind registry: every kind recognised from its directory, with and without its record. */
import { assertEquals, assertRejects } from "../../helpers/assert.ts";
import { InputError, RunFiles } from "../../../lib/base/mod.ts";
import { recogniseRun, RUN_KIND_FILE, RUN_KINDS, runKindRecord } from "../../../lib/commands/_run_kinds.ts";
import { GOLDEN } from "../../helpers/paths.ts";

const REFERENCE_POLICY = `${GOLDEN}/fixture-run/policy`;
const REFERENCE_QA = `${GOLDEN}/fixture-run/qa`;
const SHA = "a".repeat(64);

async function copy(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copy(`${from}/${entry.name}`, `${to}/${entry.name}`);
    else await Deno.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}

/** A fixture directory for every kind a directory holds, each as the program or the reference makes it. */
async function fixtures(root: string): Promise<Record<string, string | undefined>> {
  const policy = `${root}/policy`, qa = `${root}/qa`;
  await copy(REFERENCE_POLICY, policy);
  await copy(REFERENCE_QA, qa);
  const modulePolicy = `${root}/module-policy`;
  await copy(REFERENCE_POLICY, modulePolicy);
  const record = JSON.parse(await Deno.readTextFile(`${modulePolicy}/run.json`));
  record.policy_module = { file: "recency.ts", name: "recency", sha256: SHA };
  await Deno.writeTextFile(`${modulePolicy}/run.json`, JSON.stringify(record));
  const candidate = `${root}/candidate-qa`;
  await copy(REFERENCE_QA, candidate);
  const marker = JSON.parse(await Deno.readTextFile(`${candidate}/qa_run.json`));
  marker.candidate = {
    baseline: "confidence",
    policy: "recency",
    policy_module: "recency.ts",
    policy_module_sha256: SHA,
  };
  await Deno.writeTextFile(`${candidate}/qa_run.json`, JSON.stringify(marker));
  const partial = `${root}/partial`;
  await Deno.mkdir(`${partial}/partial`, { recursive: true });
  await Deno.copyFile(`${REFERENCE_QA}/qa_run.json`, `${partial}/qa_run.json`);
  await Deno.writeTextFile(
    `${partial}/partial/partial.json`,
    JSON.stringify({
      complete_pairs: 1,
      row_files: [{ row_id: "r1", sha256: SHA }],
      schema_version: 1,
      tasks: 4,
      tasks_with_rows: 1,
      unpaired: [],
    }),
  );
  // A K-run directory (run-qa --epochs 2): run 1 the directory itself, run 2 in epoch-2, K in epochs.json.
  const epochs = `${root}/epochs`;
  await copy(REFERENCE_QA, epochs);
  await copy(REFERENCE_QA, `${epochs}/epoch-2`);
  await Deno.writeTextFile(`${epochs}/epochs.json`, '{\n  "epochs": 2,\n  "schema_version": 1\n}\n');
  const sweep = `${root}/sweep`;
  await Deno.mkdir(sweep);
  for (const name of ["sweep.jsonl", "sweep.json"]) await Deno.writeTextFile(`${sweep}/${name}`, "");
  const demo = `${root}/demo`;
  await copy(REFERENCE_QA, demo);
  await Deno.mkdir(`${demo}/protocol/configs`, { recursive: true });
  await copy(REFERENCE_POLICY, `${demo}/policy`);
  return {
    policy,
    "module-policy": modulePolicy,
    qa,
    "candidate-qa": candidate,
    partial,
    epochs,
    sweep,
    demo,
    published: undefined,
  };
}

Deno.test("run-kind registry: each entry recognises its fixture directory, without a record", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dirs = await fixtures(root);
    assertEquals(Object.keys(dirs).sort(), RUN_KINDS.map((kind) => kind.name).sort());
    for (const [name, directory] of Object.entries(dirs)) {
      assertEquals((await recogniseRun(directory))?.name, name, directory);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("run-kind registry: a recorded kind is read first; a partial grading refines a QA record", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dirs = await fixtures(root);
    // The record tells a demo-made QA run from a reference-made one the files alone would not.
    await Deno.writeTextFile(`${dirs.qa}/${RUN_KIND_FILE}`, runKindRecord("demo"));
    assertEquals((await recogniseRun(dirs.qa))?.name, "demo");
    await Deno.writeTextFile(`${dirs.partial}/${RUN_KIND_FILE}`, runKindRecord("candidate-qa"));
    assertEquals((await recogniseRun(dirs.partial))?.name, "partial");
    // run-qa records run 1's kind in a K-run directory: its epochs.json refines a QA record.
    await Deno.writeTextFile(`${dirs.epochs}/${RUN_KIND_FILE}`, runKindRecord("qa"));
    assertEquals((await recogniseRun(dirs.epochs))?.name, "epochs");
    await Deno.writeTextFile(`${dirs.sweep}/${RUN_KIND_FILE}`, runKindRecord("sweep"));
    assertEquals((await recogniseRun(dirs.sweep))?.name, "sweep");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("run-kind registry: a record naming no kind, or one its files contradict, is one line", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dirs = await fixtures(root);
    const path = `${dirs.policy}/${RUN_KIND_FILE}`;
    await Deno.writeTextFile(path, '{"kind": "bogus"}\n');
    await assertRejects(
      () => recogniseRun(dirs.policy),
      InputError,
      'expected one of sweep, module-policy, policy, partial, demo, candidate-qa, qa, got "bogus"',
    );
    await Deno.writeTextFile(path, runKindRecord("qa"));
    await assertRejects(
      () => recogniseRun(dirs.policy),
      InputError,
      "records qa, but the directory holds no",
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("run-kind registry: no directory is the published run; a file or an empty directory is no run", async () => {
  const root = await Deno.makeTempDir();
  try {
    assertEquals((await recogniseRun(undefined))?.name, "published");
    assertEquals(await recogniseRun(root), undefined);
    assertEquals(await recogniseRun(`${root}/absent`), undefined);
    await Deno.writeTextFile(`${root}/file`, "");
    assertEquals(await recogniseRun(`${root}/file`), undefined);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("run-kind registry: a K-run directory's entry holds its K runs, read from epochs.json; any other kind one", async () => {
  const root = await Deno.makeTempDir();
  try {
    const dirs = await fixtures(root);
    const epochs = (await recogniseRun(dirs.epochs))!;
    assertEquals(await epochs.runs(new RunFiles(dirs.epochs!)), [dirs.epochs, `${dirs.epochs}/epoch-2`]);
    const qa = (await recogniseRun(dirs.qa))!;
    assertEquals(await qa.runs(new RunFiles(dirs.qa!)), [dirs.qa]);
    await Deno.remove(`${dirs.epochs}/epoch-2/qa_run.json`);
    await assertRejects(
      () => epochs.runs(new RunFiles(dirs.epochs!)),
      InputError,
      "epochs.json records 2 runs",
    );
    // A record of kind names run 1's; a K-run directory is never a record's kind.
    await Deno.writeTextFile(`${dirs.qa}/${RUN_KIND_FILE}`, '{"kind": "epochs"}\n');
    await assertRejects(() => recogniseRun(dirs.qa), InputError, 'got "epochs"');
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
