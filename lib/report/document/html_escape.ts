/**
 * Escaping text for HTML, shared by the HTML page and its inline SVG charts.
 *
 * @module
 */

import { visible } from "../../base/mod.ts";

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes text for HTML element content and attribute values; a control character (newline and tab aside) is
 * shown as a visible `\u001b`-style escape, as in every other output.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { escapeHtml } from "./html_escape.ts";
 * strictEqual(escapeHtml(`<a href="x">&</a>`), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
 * strictEqual(escapeHtml("m\x1b[2J"), "m\\u001b[2J");
 * ```
 */
export function escapeHtml(text: string): string {
  return visible(text, { keepLines: true }).replace(/[&<>"']/g, (char) => ENTITIES[char]);
}
