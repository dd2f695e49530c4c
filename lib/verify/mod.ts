/**
 * The verify layer's public surface: the checks that prove a results directory follows from its rows.
 *
 * @module
 */

export * from "./checks.ts";
export * from "./figures.ts";
export * from "./policy_run.ts";
export * from "./qa_run.ts";
export * from "./row_checks.ts";
export * from "./sweep_run.ts";
export * from "./run_protocol.ts";
export * from "./partial_run.ts";
