/**
 * The report layer's public surface.
 *
 * @module
 */

export * from "./compare.ts";
export * from "./explain.ts";
export * from "./html.ts";
export * from "./markdown.ts";
export * from "./report.ts";
export * from "./sweep.ts";
