/**
 * The verify layer's public surface.
 *
 * @module
 */

export * from "./policy_run.ts";
export * from "./qa_run.ts";
