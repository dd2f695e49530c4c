/**
 * The names `lib/commands` imports from this path, until it imports `mod.ts`; delete this file then.
 *
 * @module
 */

export type { Policy, PolicyResult } from "./contract.ts";
export { evaluateAll, evaluatePolicy } from "./evaluate.ts";
export { loadPolicyModule } from "./module.ts";
