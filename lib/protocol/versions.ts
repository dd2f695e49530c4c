/**
 * The versions of the frozen rules this program implements. A protocol's config pins both, and
 * {@linkcode loadContracts} refuses a config that pins another.
 *
 * @module
 */

/** The frozen blind grader's version (`qa.grader_version` in the config). */
export const GRADER_VERSION = "deterministic-overlap-v1";

/** The eviction policy version the config's `required_policy_version` must name: DeerMem's hybrid-v1. */
export const EVICTION_POLICY_VERSION = "hybrid-v1";
