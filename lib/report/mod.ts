/**
 * The report layer's public surface.
 *
 * @module
 */

export { NotVerifiedError } from "../base/errors.ts";
export * from "./against_published.ts";
export * from "./candidate_explanation.ts";
export * from "./case_answers.ts";
export * from "./collect.ts";
export * from "./compare.ts";
export * from "./discordant.ts";
export * from "./explain.ts";
export * from "./explanation.ts";
export * from "./format.ts";
export * from "./html.ts";
export * from "./html_escape.ts";
export * from "./json.ts";
export * from "./load.ts";
export * from "./many_candidates.ts";
export * from "./markdown.ts";
export * from "./model.ts";
export * from "./policy_sections.ts";
export * from "./provenance.ts";
export * from "./retention.ts";
export * from "./run_kind.ts";
export * from "./scenarios.ts";
export * from "./sections.ts";
export * from "./suites.ts";
export * from "./sweep.ts";
export * from "./sweep_schema.ts";
export * from "./text.ts";
export * from "./tokens.ts";
export * from "./verification.ts";
export * from "./run_report.ts";
export * from "./claim.ts";
