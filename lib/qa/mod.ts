/**
 * The qa layer's public surface.
 *
 * @module
 */

export * from "./answer_rows.ts";
export * from "./answering.ts";
export * from "./grading.ts";
export * from "./outputs.ts";
export * from "./prompt.ts";
export * from "./provider.ts";
export * from "./run_marker.ts";
export * from "./stats.ts";
export * from "./tasks.ts";
