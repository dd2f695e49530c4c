/**
 * Escaping text for HTML, shared by the HTML page and its inline SVG charts.
 *
 * @module
 */

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes text for HTML element content and attribute values.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { escapeHtml } from "./html_escape.ts";
 * strictEqual(escapeHtml(`<a href="x">&</a>`), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]);
}
