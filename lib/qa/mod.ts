/**
 * The qa layer's public surface.
 *
 * @module
 */

export * from "./accuracy_summary.ts";
export * from "./answer_reuse.ts";
export * from "./answer_rows.ts";
export * from "./answering.ts";
export * from "./candidate.ts";
export * from "./chat_completions.ts";
export * from "./cost.ts";
export * from "./credentials.ts";
export * from "./graded_rows.ts";
export * from "./grading.ts";
export * from "./holm.ts";
export * from "./interrupt.ts";
export * from "./prompt.ts";
export * from "./provider.ts";
export * from "./redact.ts";
export * from "./resume.ts";
export * from "./retry.ts";
export * from "./run_dir.ts";
export * from "./run_marker.ts";
export * from "./stand_in.ts";
export * from "./stats.ts";
export * from "./suite_stats.ts";
export * from "./tasks.ts";
export * from "./demo_run.ts";
export * from "./partial.ts";
