import { DirectoryLockedError, InputError } from "../../../lib/base/errors.ts";
import { acquireDirectoryLock, LOCK_FILE, refuseIfLocked } from "../../../lib/base/lock.ts";
import { assert, assertEquals, assertMatch, assertRejects } from "../../helpers/assert.ts";
import { ROOT, withTempDir } from "../../helpers/cli.ts";

const ACTION = "wait for it to finish";
const NOW = () => new Date("2026-11-30T01:02:03.456Z");

async function lockText(directory: string): Promise<string | null> {
  return await Deno.readTextFile(`${directory}/${LOCK_FILE}`).catch(() => null);
}

/** A pid that belonged to a process which has exited (and been reaped). */
async function deadPid(): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), { args: ["--version"], stdout: "null" }).spawn();
  await child.status;
  return child.pid;
}

/** Runs tests/fixtures/lock_child.ts in its own process; resolves to its one line of output. */
function lockChild(directory: string, holdMs: number, how = ""): Promise<string> {
  const command = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      `${ROOT}tests/fixtures/lock_child.ts`,
      directory,
      String(holdMs),
      how,
    ],
    stdout: "piped",
    stderr: "piped",
  });
  return command.output().then((output) => new TextDecoder().decode(output.stdout).trim());
}

Deno.test("the lock file holds the pid and start time while held and is gone after release", async () => {
  await withTempDir(async (directory) => {
    const lock = await acquireDirectoryLock(directory, "run-qa", ACTION, NOW);
    assertEquals(lock.tookOver, null);
    assertEquals(JSON.parse((await lockText(directory))!), {
      command: "run-qa",
      pid: Deno.pid,
      started_at: "2026-11-30T01:02:03.456Z",
    });
    assertEquals([...Deno.readDirSync(directory)].map((entry) => entry.name), [LOCK_FILE]);
    lock.release();
    lock.release();
    assertEquals(await lockText(directory), null);
    await refuseIfLocked(directory, ACTION);
  });
});

Deno.test("a held lock refuses a second holder and a check, naming the holder's pid and start time", async () => {
  await withTempDir(async (directory) => {
    const lock = await acquireDirectoryLock(directory, "run-qa", ACTION, NOW);
    try {
      const expected = new RegExp(
        `run-qa\\.lock: locked by run-qa \\(pid ${Deno.pid}, started 2026-11-30T01:02:03\\.456Z\\): wait for it`,
      );
      const second = await assertRejects(
        () => acquireDirectoryLock(directory, "run-qa", ACTION),
        DirectoryLockedError,
      );
      assertMatch(second.message, expected);
      const check = await assertRejects(() => refuseIfLocked(directory, "grade later"), DirectoryLockedError);
      assertMatch(check.message, /locked by run-qa \(pid \d+, started [^)]+\): grade later/);
      // Another process sees the same.
      assertMatch(await lockChild(directory, 0), new RegExp(`^refused: .*pid ${Deno.pid}, started`));
      assertEquals(
        JSON.parse((await lockText(directory))!).pid,
        Deno.pid,
        "the refusals left the lock alone",
      );
    } finally {
      lock.release();
    }
    assertEquals([...Deno.readDirSync(directory)], [], "no temporary file is left behind");
  });
});

Deno.test("a stale lock (no process holds its flock) is taken over, whatever it says", async () => {
  await withTempDir(async (directory) => {
    const pid = await deadPid();
    const stale = { command: "run-qa", pid, started_at: "2026-11-29T00:00:00.000Z" };
    await Deno.writeTextFile(`${directory}/${LOCK_FILE}`, JSON.stringify(stale));
    await refuseIfLocked(directory, ACTION);
    const lock = await acquireDirectoryLock(directory, "run-qa", ACTION, NOW);
    assertEquals(lock.tookOver, stale);
    assertEquals(JSON.parse((await lockText(directory))!).pid, Deno.pid);
    lock.release();

    await Deno.writeTextFile(`${directory}/${LOCK_FILE}`, "{ half a lock");
    const overUnreadable = await acquireDirectoryLock(directory, "run-qa", ACTION);
    assertEquals(overUnreadable.tookOver?.command, "unknown");
    overUnreadable.release();

    // The flock, not the pid, tells: a lock file nobody flocks is stale even if its pid is running now (reused).
    await Deno.writeTextFile(
      `${directory}/${LOCK_FILE}`,
      JSON.stringify({ command: "run-qa", pid: Deno.pid, started_at: "2026-11-29T00:00:00.000Z" }),
    );
    const overReused = await acquireDirectoryLock(directory, "run-qa", ACTION);
    assertEquals(overReused.tookOver?.started_at, "2026-11-29T00:00:00.000Z");
    overReused.release();
  });
});

Deno.test("processes racing for one stale lock: exactly one takes it over, the others name that one", async () => {
  await withTempDir(async (directory) => {
    const pid = await deadPid();
    await Deno.writeTextFile(
      `${directory}/${LOCK_FILE}`,
      JSON.stringify({ command: "run-qa", pid, started_at: "2026-11-29T00:00:00.000Z" }),
    );
    const lines = await Promise.all([0, 1, 2, 3].map(() => lockChild(directory, 3000)));
    const winners = lines.filter((line) => line.startsWith("acquired"));
    assertEquals(winners, [`acquired over pid ${pid}`], lines.join("\n"));
    for (const line of lines.filter((line) => !line.startsWith("acquired"))) {
      assertMatch(line, /^refused: .*locked by run-qa \(pid \d+/);
      assert(!line.includes(`pid ${pid},`), `a loser named the dead holder: ${line}`);
    }
    assertEquals(await lockText(directory), null, "the winner released the lock");
  });
});

Deno.test("a holder that quits through Deno.exit still removes its lock", async () => {
  await withTempDir(async (directory) => {
    assertEquals(await lockChild(directory, 0, "exit"), "acquired");
    assertEquals(await lockText(directory), null);
  });
});

Deno.test("a stale lock replaced by a live one between open and flock is not taken: the live holder is named", async () => {
  await withTempDir(async (directory) => {
    const path = `${directory}/${LOCK_FILE}`;
    const stale = { command: "run-qa", pid: await deadPid(), started_at: "2026-11-29T00:00:00.000Z" };
    await Deno.writeTextFile(path, JSON.stringify(stale));
    const staleIno = (await Deno.stat(path)).ino;
    const live = { command: "run-qa", pid: 4242, started_at: "2026-11-30T00:00:00.000Z" };
    const prototype = Deno.FsFile.prototype;
    const tryLock = prototype.tryLock;
    let liveFile: Deno.FsFile | undefined;
    // The moment the acquirer, holding the stale file open, asks for its flock, another run replaces the lock.
    prototype.tryLock = async function (this: Deno.FsFile, exclusive?: boolean) {
      if (liveFile === undefined && this.statSync().ino === staleIno) {
        const temporary = `${directory}/live.tmp`;
        await Deno.writeTextFile(temporary, JSON.stringify(live));
        liveFile = await Deno.open(temporary, { read: true });
        assert(await tryLock.call(liveFile, true), "the live holder's flock");
        await Deno.rename(temporary, path);
      }
      return await tryLock.call(this, exclusive);
    };
    try {
      const error = await assertRejects(
        () => acquireDirectoryLock(directory, "run-qa", ACTION, NOW),
        DirectoryLockedError,
      );
      assertMatch(error.message, /locked by run-qa \(pid 4242, started 2026-11-30T00:00:00\.000Z\)/);
      assert(liveFile !== undefined, "the replacement happened");
      assertEquals(JSON.parse((await lockText(directory))!), live); // the live lock is left as it was
    } finally {
      prototype.tryLock = tryLock;
      liveFile?.close();
    }
  });
});

Deno.test("a lock path that is a symlink, a FIFO or a directory is refused at once, naming it; never waited on", async () => {
  for (const kind of ["symlink", "fifo", "directory"] as const) {
    const directory = await Deno.makeTempDir();
    try {
      const path = `${directory}/${LOCK_FILE}`;
      if (kind === "symlink") await Deno.symlink(`${directory}/elsewhere`, path);
      if (kind === "directory") await Deno.mkdir(path);
      if (kind === "fifo") assert((await new Deno.Command("mkfifo", { args: [path] }).output()).success);
      for (
        const attempt of [
          () => acquireDirectoryLock(directory, "run-qa", "x"),
          () => refuseIfLocked(directory, "x"),
        ]
      ) {
        const error = await assertRejects(attempt, InputError);
        assertMatch(error.message, new RegExp(`^${path.replaceAll(".", "\\.")}: is .*not a lock file`), kind);
      }
    } finally {
      await Deno.remove(directory, { recursive: true });
    }
  }
});

Deno.test("a stale lock file of garbage bytes is taken over as unreadable, never a bug", async () => {
  const directory = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${directory}/${LOCK_FILE}`, new Uint8Array([0xff, 0xfe, 0x00, 0x80]));
    const lock = await acquireDirectoryLock(directory, "run-qa", "x");
    assertEquals(lock.tookOver, { command: "unknown", pid: 0, started_at: "unknown" });
    lock.release();
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
});

/** Makes the lock's name something other than a lock file; returns what it now is, as the refusal names it. */
const ODD_LOCKS: [string, (path: string, directory: string) => Promise<void>][] = [
  ["a symbolic link", async (path, directory) => {
    await Deno.writeTextFile(`${directory}/target`, "{}\n");
    await Deno.symlink(`${directory}/target`, path);
  }],
  ["a symbolic link", (path) => Deno.symlink("/definitely/not/here", path)],
  ["a FIFO", async (path) => {
    assertEquals((await new Deno.Command("mkfifo", { args: [path] }).output()).code, 0);
  }],
  ["a directory", (path) => Deno.mkdir(path)],
];

Deno.test("a lock name that is a symlink, a FIFO or a directory is refused at once, naming it, never opened or looped on", async () => {
  for (const [kind, make] of ODD_LOCKS) {
    await withTempDir(async (directory) => {
      const path = `${directory}/${LOCK_FILE}`;
      await make(path, directory);
      const expected =
        `${path}: is ${kind}, not a lock file run-qa writes: remove it if no run-qa is running`;
      for (
        const attempt of [
          () => acquireDirectoryLock(directory, "run-qa", ACTION),
          () => refuseIfLocked(directory, ACTION),
        ]
      ) {
        const error = await assertRejects(attempt, DirectoryLockedError);
        assertEquals(error.message, expected);
      }
      const left = [...Deno.readDirSync(directory)].map((entry) => entry.name).filter((name) =>
        name !== "target"
      );
      assertEquals(left, [LOCK_FILE], "no temporary file is left behind");
    });
  }
});

Deno.test("a held lock of bytes that are not UTF-8 is refused as held by an unknown process, naming the path", async () => {
  await withTempDir(async (directory) => {
    const path = `${directory}/${LOCK_FILE}`;
    await Deno.writeFile(path, new Uint8Array([0xff, 0x0a]));
    const held = await Deno.open(path, { read: true });
    try {
      await held.lock(true);
      const error = await assertRejects(
        () => acquireDirectoryLock(directory, "run-qa", ACTION),
        DirectoryLockedError,
      );
      assertEquals(
        error.message,
        `${path}: locked by another process (its lock file is unreadable): ${ACTION}`,
      );
      await assertRejects(() => refuseIfLocked(directory, ACTION), DirectoryLockedError, "unreadable");
    } finally {
      held.close();
    }
  });
});
