/**
 * The one escaping rule for text that comes from outside (a server's messages and model names, file names and
 * paths, the dataset's text, answers): no control or escape character reaches a file, a pipe or a terminal.
 * Each is shown as a visible `\u001b`-style escape instead — the form JSON uses, so a JSON document stays valid
 * and means the same.
 *
 * @module
 */

/**
 * C0 controls (ESC starts every CSI, OSC and DCS sequence), DEL, C1 controls (U+009B is a one-character CSI to
 * some terminals), and the bidi embeddings, overrides and isolates that reorder what a line seems to say.
 */
// deno-lint-ignore no-control-regex -- these are the characters escaped
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const CONTROLS = new RegExp(CONTROL.source, "g");
// deno-lint-ignore no-control-regex -- the same, less the newline and tab a multi-line format keeps
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** How {@linkcode visible} treats line breaks. */
export interface VisibleOptions {
  /** Keep newline and tab as they are (text of several lines, a document); every other control is escaped. */
  keepLines?: boolean;
}

/**
 * Outside text made safe to print: every control character (newline and tab too, unless `keepLines`), DEL, C1
 * and bidi override as `\uXXXX`. Text without one is returned as it is; escaping twice changes nothing more.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { visible } from "./visible.ts";
 * strictEqual(visible("m\x1b]52;c;aGk=\x07\n✓ ok"), "m\\u001b]52;c;aGk=\\u0007\\u000a✓ ok");
 * strictEqual(visible("a\u009b2J\u202eb\tc\nd", { keepLines: true }), "a\\u009b2J\\u202eb\tc\nd");
 * strictEqual(visible(visible("\x1b[2J")), "\\u001b[2J"); // idempotent: the backslash is left alone
 * strictEqual(JSON.parse(visible('{"m": "x\u0085"}')).m, "x\u0085"); // a JSON document keeps its value
 * ```
 */
export function visible(text: string, options: VisibleOptions = {}): string {
  if (!CONTROL.test(text)) return text;
  const pattern = options.keepLines === true ? CONTROLS_BUT_LINES : CONTROLS;
  return text.replace(pattern, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
