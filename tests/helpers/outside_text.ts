/** Hostile outside text, and the check that none of its control bytes reached an output. */

import { assert } from "./assert.ts";

/**
 * Text a server, a dataset or a file name could carry: OSC 52 (set the clipboard), a screen clear, a carriage
 * return and a newline before a fake check line, a C1 CSI, DEL and a right-to-left override.
 */
export const HOSTILE = "\x1b]52;c;aGk=\x07\x1b[2J\r\n✓ FORGED line\u009b31m\x7f\u202eend";

/**
 * A line an output would show if the hostile text's newline got through: at the start of a line (a line wrapped
 * at the space before it is indented).
 */
export const FORGED_LINE = /^✓ FORGED/m;

/** Every C0 control but newline and tab, DEL, every C1 control, the bidi embeddings, overrides and isolates. */
// deno-lint-ignore no-control-regex -- these are what must not be written
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

/**
 * Fails, naming `where` and showing the place, when `text` holds a raw control character or (unless `lines` is
 * false: HTML, where a newline is a space) a forged line.
 */
export function assertNoRawControl(text: string, where: string, lines = true): void {
  const match = RAW_CONTROL.exec(text);
  const around = (at: number) => JSON.stringify(text.slice(Math.max(0, at - 40), at + 40));
  assert(
    match === null,
    `${where}: a raw ${JSON.stringify(match?.[0])} at ${match?.index}: ${around(match?.index ?? 0)}`,
  );
  const forged = lines ? FORGED_LINE.exec(text) : null;
  assert(forged === null, `${where}: a forged line: ${around(forged?.index ?? 0)}`);
}

/** The raw bytes of `path` as text, checked as {@linkcode assertNoRawControl} checks (strict UTF-8 first). */
export async function assertFileHasNoRawControl(path: string, lines = true): Promise<string> {
  const text = new TextDecoder("utf-8", { fatal: true }).decode(await Deno.readFile(path));
  assertNoRawControl(text, path, lines);
  return text;
}
