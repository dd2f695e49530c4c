/** README's command reference is generated truth: every command's usage line, exactly as its help prints it. */

import { assertEquals } from "../helpers/assert.ts";
import { ROOT } from "../helpers/paths.ts";
import { COMMAND_NAMES, loadAllCommands, usageLine } from "../../lib/commands/mod.ts";

Deno.test("README lists every command with exactly the flags it takes", async () => {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const block = readme.slice(readme.indexOf("```text\ndeermem-eval validate-contracts"));
  const listed = block.slice("```text\n".length, block.indexOf("\n```")).split("\n");
  const commands = await loadAllCommands();
  assertEquals(listed, commands.map(usageLine));
  assertEquals(commands.map((command) => command.name), [...COMMAND_NAMES]);
});
