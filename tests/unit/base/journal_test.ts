import {
  beginJournal,
  type PublishJournal,
  recoverInterruptedPublishes,
  type StagedFile,
} from "../../../lib/base/journal.ts";
import { ContentDigest } from "../../../lib/base/hash.ts";
import { OverwriteError } from "../../../lib/base/errors.ts";
import { IoError } from "../../../lib/base/mod.ts";
import { publishFiles, writeAllOrNothing, writeFileAtomic } from "../../../lib/base/fs.ts";
import { assertEquals, assertRejects } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";

const NAMES = ["a.json", "b.json", "c.json"];

async function entries(directory: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(directory)) names.push(entry.name);
  return names.sort();
}

/** What the publish records of a staging file it wrote in full. */
async function stagedAt(path: string): Promise<StagedFile> {
  const info = await Deno.stat(path);
  const digest = new ContentDigest();
  await digest.update(await Deno.readFile(path));
  return { dev: info.dev, ino: info.ino!, size: info.size, digest: await digest.hex() };
}

interface Killed {
  /** Every staging file written in full and recorded in the journal. */
  staged?: boolean;
  /** How many targets were linked into place. */
  linked?: number;
  /** How many staging names were removed after all were linked. */
  unstaged?: number;
}

/** What a publish of `targets` killed at the given point leaves behind (the lock dropped, as at death). */
async function killedPublish(targets: readonly string[], at: Killed): Promise<PublishJournal> {
  const journal = await beginJournal(targets);
  const identities = [];
  for (const [index, staging] of journal.staging.entries()) {
    // Killed while staging: the last file is only half written.
    const whole = at.staged !== false || index < targets.length - 1;
    await Deno.writeTextFile(staging, whole ? `old ${index}\n` : "old");
    identities.push(await stagedAt(staging));
  }
  if (at.staged !== false) await journal.recordStaged(identities);
  for (let index = 0; index < (at.linked ?? 0); index++) {
    await Deno.link(journal.staging[index], targets[index]);
  }
  for (let index = 0; index < (at.unstaged ?? 0); index++) await Deno.remove(journal.staging[index]);
  journal.abandon();
  return journal;
}

const targetsIn = (directory: string) => NAMES.map((name) => `${directory}/${name}`);

for (const linked of [0, 1, 2]) {
  Deno.test(`killed with every file staged and ${linked} of 3 linked: the next publish into the directory completes it`, async () => {
    await withTempDir(async (directory) => {
      await killedPublish(targetsIn(directory), { linked });
      await writeFileAtomic(`${directory}/other.json`, "{}\n");
      assertEquals(await entries(directory), [...NAMES, "other.json"]);
      for (const [index, name] of NAMES.entries()) {
        assertEquals(await Deno.readTextFile(`${directory}/${name}`), `old ${index}\n`);
      }
    });
  });
}

Deno.test("killed after every link, while removing the staging names: completed (the names go)", async () => {
  await withTempDir(async (directory) => {
    await killedPublish(targetsIn(directory), { linked: 3, unstaged: 1 });
    const recovered = await recoverInterruptedPublishes([`${directory}/other.json`]);
    assertEquals(recovered.map((recovery) => recovery.outcome), ["completed"]);
    assertEquals(await entries(directory), NAMES);
  });
});

for (const at of [{ linked: 0 }, { linked: 2 }, { linked: 3 }]) {
  Deno.test(`the same publish run again supersedes the killed one (${JSON.stringify(at)}): cleared, then written anew`, async () => {
    await withTempDir(async (directory) => {
      await killedPublish(targetsIn(directory), at);
      await writeAllOrNothing(directory, { "a.json": "new a\n", "b.json": "new b\n", "c.json": "new c\n" });
      assertEquals(await entries(directory), NAMES);
      assertEquals(await Deno.readTextFile(`${directory}/c.json`), "new c\n");
    });
  });
}

Deno.test("killed after every link, while removing the staging names: finished, so the same publish run again refuses as after any finished one", async () => {
  await withTempDir(async (directory) => {
    await killedPublish(targetsIn(directory), { linked: 3, unstaged: 2 });
    await assertRejects(
      () => writeAllOrNothing(directory, { "a.json": "new a\n", "b.json": "new b\n", "c.json": "new c\n" }),
      OverwriteError,
      "a.json",
    );
    assertEquals(await entries(directory), NAMES);
    assertEquals(await Deno.readTextFile(`${directory}/c.json`), "old 2\n");
  });
});

Deno.test("killed while staging (not every file complete): cleared, nothing placed", async () => {
  await withTempDir(async (directory) => {
    await killedPublish(targetsIn(directory), { staged: false });
    const recovered = await recoverInterruptedPublishes([`${directory}/other.json`]);
    assertEquals(recovered.map((recovery) => recovery.outcome), ["cleared"]);
    assertEquals(await entries(directory), []);
  });
});

Deno.test("a journal naming a file that is not ours: that file is untouched, what was ours is cleared", async () => {
  await withTempDir(async (directory) => {
    await killedPublish(targetsIn(directory), { linked: 1 });
    // Someone else wrote b.json before the dead publish's link could.
    await Deno.writeTextFile(`${directory}/b.json`, "theirs\n");
    const recovered = await recoverInterruptedPublishes([`${directory}/other.json`]);
    assertEquals(recovered.map((recovery) => recovery.outcome), ["cleared"]);
    assertEquals(await entries(directory), ["b.json"]);
    assertEquals(await Deno.readTextFile(`${directory}/b.json`), "theirs\n");
  });
});

Deno.test("a rerun where a target is now someone else's: ours cleared, theirs kept, the rerun refuses it", async () => {
  await withTempDir(async (directory) => {
    await killedPublish(targetsIn(directory), { linked: 2 });
    await Deno.remove(`${directory}/b.json`);
    await Deno.writeTextFile(`${directory}/b.json`, "theirs\n");
    await assertRejects(
      () => writeAllOrNothing(directory, { "a.json": "", "b.json": "" }),
      OverwriteError,
      "b.json",
    );
    assertEquals(await entries(directory), ["b.json"]);
    assertEquals(await Deno.readTextFile(`${directory}/b.json`), "theirs\n");
  });
});

Deno.test("the journal of a publish still running (its lock held) is left alone", async () => {
  await withTempDir(async (directory) => {
    const journal = await beginJournal(targetsIn(directory));
    assertEquals(await recoverInterruptedPublishes([`${directory}/other.json`]), []);
    assertEquals((await entries(directory)).length, 1);
    journal.remove();
    assertEquals(await entries(directory), []);
  });
});

Deno.test("an empty journal (killed before its first line) is removed; a torn or foreign one is refused, left as it is", async () => {
  await withTempDir(async (directory) => {
    const empty = `${directory}/.publish.${crypto.randomUUID()}.journal`;
    await Deno.writeTextFile(empty, "");
    const torn = `${directory}/.publish.${crypto.randomUUID()}.journal`;
    await Deno.writeTextFile(torn, '{"journal":"deermem-');
    const foreign = `${directory}/.publish.${crypto.randomUUID()}.journal`;
    await Deno.writeTextFile(foreign, '{"someone":"else"}\n');
    await Deno.writeTextFile(`${directory}/.publish.not-an-id.journal`, "");
    const recovered = await recoverInterruptedPublishes([`${directory}/other.json`]);
    const outcomes = Object.fromEntries(recovered.map((recovery) => [recovery.journal, recovery.outcome]));
    assertEquals(outcomes, { [empty]: "cleared", [torn]: "refused", [foreign]: "refused" });
    assertEquals((await entries(directory)).length, 3);
  });
});

Deno.test("a journal that is a symbolic link to one of ours elsewhere: refused, neither followed nor removed", async () => {
  await withTempDir(async (directory) => {
    await Deno.mkdir(`${directory}/elsewhere`);
    await killedPublish(targetsIn(`${directory}/elsewhere`), { staged: false });
    const [journal] = (await entries(`${directory}/elsewhere`)).filter((name) => name.endsWith(".journal"));
    await Deno.symlink(`${directory}/elsewhere/${journal}`, `${directory}/${journal}`);
    const recovered = await recoverInterruptedPublishes([`${directory}/other.json`]);
    assertEquals(recovered.map((recovery) => [recovery.outcome, recovery.reason]), [[
      "refused",
      "it is not a regular file",
    ]]);
    assertEquals((await entries(`${directory}/elsewhere`)).length, 4);
  });
});

Deno.test("a publish across directories killed half-way: each directory has its own journal, and the rerun clears both", async () => {
  await withTempDir(async (directory) => {
    await Deno.mkdir(`${directory}/md`);
    await Deno.mkdir(`${directory}/html`);
    const targets = [`${directory}/md/r.md`, `${directory}/html/r.html`];
    await killedPublish(targets, { linked: 1 });
    const id = await journalIdIn(`${directory}/md`);
    assertEquals(await entries(`${directory}/html`), [`.publish.${id}.journal`, `.r.html.${id}.staging`]);
    await publishFiles([[targets[0], "# new\n"], [targets[1], "<p>new</p>\n"]]);
    assertEquals(await entries(`${directory}/md`), ["r.md"]);
    assertEquals(await entries(`${directory}/html`), ["r.html"]);
    assertEquals(await Deno.readTextFile(targets[1]), "<p>new</p>\n");
  });
});

async function journalIdIn(directory: string): Promise<string> {
  const name = (await entries(directory)).find((entry) => entry.endsWith(".journal"))!;
  return name.slice(".publish.".length, -".journal".length);
}

Deno.test("a publish across directories, one of them missing: fails naming it, and leaves no journal in the other", async () => {
  await withTempDir(async (directory) => {
    await Deno.mkdir(`${directory}/md`);
    await assertRejects(
      () => publishFiles([[`${directory}/md/r.md`, "# r\n"], [`${directory}/missing/r.html`, "<p>r</p>\n"]]),
      IoError,
      "No such file or directory",
    );
    assertEquals(await entries(`${directory}/md`), []);
  });
});

Deno.test("a staging file changed in place after it was recorded (same inode, same size): the journal is refused, its linked target kept", async () => {
  await withTempDir(async (directory) => {
    const journal = await killedPublish(targetsIn(directory), { linked: 1 });
    await Deno.writeTextFile(journal.staging[0], "new 0\n"); // a.json is the same file: it changes too
    const recovered = await recoverInterruptedPublishes([`${directory}/a.json`]);
    assertEquals(recovered.map((recovery) => [recovery.outcome, recovery.reason]), [[
      "refused",
      "its staging file for a.json does not hold what it recorded",
    ]]);
    assertEquals(await Deno.readTextFile(`${directory}/a.json`), "new 0\n");
    assertEquals((await entries(directory)).length, 5); // the journal, a.json and three staging files
  });
});

Deno.test("a killed publish's journal with a byte-order mark put before its first line: refused, left as it is, nothing linked", async () => {
  await withTempDir(async (directory) => {
    const journal = await killedPublish(targetsIn(directory), { linked: 0 });
    const path = `${directory}/.publish.${journal.id}.journal`;
    await Deno.writeFile(path, new Uint8Array([0xef, 0xbb, 0xbf, ...await Deno.readFile(path)]));
    const recovered = await recoverInterruptedPublishes([`${directory}/other.json`]);
    assertEquals(recovered.map((recovery) => [recovery.journal, recovery.outcome]), [[path, "refused"]]);
    assertEquals((await entries(directory)).filter((name) => NAMES.includes(name)), []);
  });
});
