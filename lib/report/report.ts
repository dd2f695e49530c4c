/**
 * The names `cli.ts` and `lib/commands/demo.ts` import from this path, until they import `./mod.ts`; then this
 * file goes. Each lives in the module named here.
 *
 * @module
 */

export { NotVerifiedError } from "../base/errors.ts";
export { buildReport, report } from "./load.ts";
export type { Prices } from "./run_report.ts";
export { reportText, sectionsText, verificationLines } from "./text.ts";
