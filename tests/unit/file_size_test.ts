/** No file in lib/ is over 450 lines, and base/errors.ts (the base classes only) stays within 250. */
import { assertEquals } from "../helpers/assert.ts";
import { ROOT } from "../helpers/paths.ts";

const CAP = 450;
const ERRORS_CAP = 250;

async function lineCounts(dir: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) { for (const [file, lines] of await lineCounts(path)) counts.set(file, lines); }
    else if (entry.name.endsWith(".ts")) {
      counts.set(path, (await Deno.readTextFile(`${ROOT}${path}`)).split("\n").length - 1);
    }
  }
  return counts;
}

Deno.test(`no file in lib/ is over ${CAP} lines`, async () => {
  const counts = await lineCounts("lib");
  const over = [...counts].filter(([, lines]) => lines > CAP).map(([file, lines]) => `${file}: ${lines}`);
  assertEquals(over, []);
});

Deno.test(`lib/base/errors.ts holds the base classes only: at most ${ERRORS_CAP} lines`, async () => {
  const lines = (await Deno.readTextFile(`${ROOT}lib/base/errors.ts`)).split("\n").length - 1;
  assertEquals(lines <= ERRORS_CAP, true, `lib/base/errors.ts: ${lines} lines`);
});
