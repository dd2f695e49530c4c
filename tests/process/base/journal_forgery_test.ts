// Journals the program did not write: each is forged as well as someone who can stat and read the victim's
// file could (inode, size, mtime, device, content digest, the directory's identity, even a staging name
// hard-linked to the victim), and each must leave every file it names as it was.

import { OverwriteError } from "../../../lib/base/errors.ts";
import { ContentDigest } from "../../../lib/base/hash.ts";
import { writeAllOrNothing, writeFileAtomic } from "../../../lib/base/fs.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";
import { runOnFixture } from "../../helpers/fixture.ts";

async function digestOf(path: string): Promise<string> {
  const digest = new ContentDigest();
  await digest.update(await Deno.readFile(path));
  return await digest.hex();
}

/** What a forger copies from `stat` and a read of the file at `path`. */
async function identityOf(path: string) {
  const info = await Deno.stat(path);
  return {
    dev: info.dev,
    ino: info.ino,
    size: info.size,
    mtime: info.mtime?.getTime() ?? null,
    digest: await digestOf(path),
  };
}

/** A staged entry for a file that is not there (so that the dead publish looks unfinished). */
const BOGUS = { dev: 1, ino: 1, size: 1, mtime: 1, digest: "0".repeat(64) };

interface Forgery {
  /** The directory the journal claims to be written in (default: the one it is put in). */
  claimedDirectory?: string;
  targets: string[];
  staged: unknown[];
}

/** Writes a journal in `directory` as this program's format spells it, with the forger's values. */
async function forgeJournal(directory: string, forgery: Forgery): Promise<{ id: string; path: string }> {
  const id = crypto.randomUUID();
  const claimed = await Deno.stat(forgery.claimedDirectory ?? directory);
  const intent = {
    journal: "deermem-eval publish",
    version: 2,
    id,
    directory: { dev: claimed.dev, ino: claimed.ino },
    targets: forgery.targets,
  };
  const path = `${directory}/.publish.${id}.journal`;
  await Deno.writeTextFile(
    path,
    `${JSON.stringify(intent)}\n${JSON.stringify({ staged: forgery.staged })}\n`,
  );
  return { id, path };
}

async function entries(directory: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(directory)) names.push(entry.name);
  return names.sort();
}

Deno.test("a forged journal copying a file's inode, size, mtime and digest: run-policy --output-dir keeps that file (exit 0)", async () => {
  await withTempDir(async (scratch) => {
    const out = `${scratch}/out`;
    await Deno.mkdir(out);
    await Deno.writeTextFile(`${out}/victim.txt`, "the victim's own notes\n");
    await forgeJournal(out, {
      targets: ["victim.txt", "gone.txt"],
      staged: [await identityOf(`${out}/victim.txt`), BOGUS],
    });
    const result = await runOnFixture("run-policy", out);
    assertEquals(result.code, 0, result.stderr);
    assertEquals(await Deno.readTextFile(`${out}/victim.txt`), "the victim's own notes\n");
  });
});

Deno.test("a journal another user left in a shared sticky directory: left as it is, the victim's file kept, one warning", async () => {
  await withTempDir(async (shared) => {
    await Deno.chmod(shared, 0o1777);
    await Deno.writeTextFile(`${shared}/victim.txt`, "mine\n");
    const victim = await identityOf(`${shared}/victim.txt`);
    // Everything else checks: a staging name linked to the victim's file, holding what the journal says.
    const { id, path } = await forgeJournal(shared, {
      targets: ["victim.txt", "gone.txt"],
      staged: [victim, BOGUS],
    });
    await Deno.link(`${shared}/victim.txt`, `${shared}/.victim.txt.${id}.staging`);
    await Deno.chown(path, 65534, 65534);
    const warnings: string[] = [];
    await writeFileAtomic(`${shared}/report.html`, "<p>r</p>\n", { warn: (line) => warnings.push(line) });
    assertEquals(await Deno.readTextFile(`${shared}/victim.txt`), "mine\n");
    assertEquals(await entries(shared), [
      `.publish.${id}.journal`,
      `.victim.txt.${id}.staging`,
      "report.html",
      "victim.txt",
    ]);
    assertEquals(warnings.length, 1);
    assertMatch(warnings[0], new RegExp(`^${path}: .*belongs to uid 65534, not to this user$`));
  });
});

Deno.test("a journal naming another run's three outputs, written for another directory: refused, all three kept", async () => {
  await withTempDir(async (scratch) => {
    await Deno.mkdir(`${scratch}/elsewhere`);
    const run = `${scratch}/run`;
    await Deno.mkdir(run);
    const names = ["a.json", "b.json", "c.json"];
    await writeAllOrNothing(run, { "a.json": "A\n", "b.json": "B\n", "c.json": "C\n" });
    const staged = await Promise.all(names.map((name) => identityOf(`${run}/${name}`)));
    const { id } = await forgeJournal(run, {
      claimedDirectory: `${scratch}/elsewhere`,
      targets: [...names, "d.json"],
      staged: [...staged, BOGUS],
    });
    for (const name of names) await Deno.link(`${run}/${name}`, `${run}/.${name}.${id}.staging`);
    const warnings: string[] = [];
    await writeFileAtomic(`${run}/other.json`, "{}\n", { warn: (line) => warnings.push(line) });
    for (const [index, name] of names.entries()) {
      assertEquals(await Deno.readTextFile(`${run}/${name}`), `${"ABC"[index]}\n`);
    }
    assertEquals(warnings.length, 1);
    assertMatch(warnings[0], /written in another directory$/);
  });
});

for (const outside of ["absolute", "../"] as const) {
  Deno.test(`a forged complete journal naming a target by ${outside} path: refused, no link made outside the directory`, async () => {
    await withTempDir(async (scratch) => {
      const out = `${scratch}/out`;
      await Deno.mkdir(out);
      const id = crypto.randomUUID();
      // The staging file the forged journal points at, outside the directory, complete and as recorded.
      await Deno.writeTextFile(`${scratch}/.x.${id}.staging`, "planted\n");
      const target = outside === "absolute" ? `${scratch}/x` : "../x";
      const intent = { journal: "deermem-eval publish", version: 2, id, targets: [target] };
      const staged = { staged: [await identityOf(`${scratch}/.x.${id}.staging`)] };
      const outDir = await Deno.stat(out);
      Object.assign(intent, { directory: { dev: outDir.dev, ino: outDir.ino } });
      await Deno.writeTextFile(
        `${out}/.publish.${id}.journal`,
        `${JSON.stringify(intent)}\n${JSON.stringify(staged)}\n`,
      );
      const warnings: string[] = [];
      await writeFileAtomic(`${out}/report.md`, "# r\n", { warn: (line) => warnings.push(line) });
      assertEquals(await entries(scratch), [`.x.${id}.staging`, "out"]);
      assertEquals(warnings.length, 1);
      assertMatch(warnings[0], /names a file outside its directory$/);
    });
  });
}

Deno.test("a journal whose staging name is a symbolic link: refused, the link neither followed nor linked", async () => {
  await withTempDir(async (scratch) => {
    const out = `${scratch}/out`;
    await Deno.mkdir(out);
    await Deno.writeTextFile(`${scratch}/victim.txt`, "outside\n");
    const { id } = await forgeJournal(out, {
      targets: ["a.json"],
      staged: [await identityOf(`${scratch}/victim.txt`)],
    });
    await Deno.symlink(`${scratch}/victim.txt`, `${out}/.a.json.${id}.staging`);
    const warnings: string[] = [];
    await writeFileAtomic(`${out}/b.json`, "{}\n", { warn: (line) => warnings.push(line) });
    assertEquals(await Deno.readTextFile(`${scratch}/victim.txt`), "outside\n");
    assertEquals((await entries(out)).includes("a.json"), false);
    assertEquals(warnings.length, 1);
    assertMatch(warnings[0], /staging file for a\.json is not a regular file$/);
  });
});

Deno.test("a dead publish whose target is now a symbolic link: the link is not followed, not removed, and what it points at is kept", async () => {
  await withTempDir(async (scratch) => {
    const out = `${scratch}/out`;
    await Deno.mkdir(out);
    await Deno.writeTextFile(`${scratch}/victim.txt`, "outside\n");
    const id = crypto.randomUUID();
    const staging = `${out}/.a.json.${id}.staging`;
    await Deno.writeTextFile(staging, "A\n");
    await forgeJournal(out, { targets: ["a.json"], staged: [await identityOf(staging)] });
    // forgeJournal drew its own id: name the staging file after it.
    const journal = (await entries(out)).find((name) => name.endsWith(".journal"))!;
    const journalId = journal.slice(".publish.".length, -".journal".length);
    await Deno.rename(staging, `${out}/.a.json.${journalId}.staging`);
    await Deno.symlink(`${scratch}/victim.txt`, `${out}/a.json`);
    await assertRejects(() => writeFileAtomic(`${out}/a.json`, "new\n"), OverwriteError);
    assertEquals(await Deno.readTextFile(`${scratch}/victim.txt`), "outside\n");
    assert((await Deno.lstat(`${out}/a.json`)).isSymlink);
    assertEquals(await entries(out), ["a.json"]);
  });
});

Deno.test("run-policy beside a journal it cannot prove its own: exit 0, one warning line naming it, the journal and its files kept", async () => {
  await withTempDir(async (scratch) => {
    const out = `${scratch}/out`;
    await Deno.mkdir(out);
    await Deno.writeTextFile(`${out}/victim.txt`, "mine\n");
    const { path } = await forgeJournal(out, {
      targets: ["victim.txt", "gone.txt"],
      staged: [await identityOf(`${out}/victim.txt`), BOGUS],
    });
    await Deno.chown(path, 65534, 65534);
    const result = await runOnFixture("run-policy", out);
    assertEquals(result.code, 0, result.stderr);
    assertEquals(
      result.stderr,
      `warning: ${path}: a publish journal left as it is, nothing it names touched: it belongs to uid 65534, not to this user\n`,
    );
    assertEquals(await Deno.readTextFile(`${out}/victim.txt`), "mine\n");
    assert((await entries(out)).includes(path.slice(out.length + 1)));
  });
});
