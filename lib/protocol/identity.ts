/**
 * Where a record came from: the program that wrote it, recorded in `run.json`, `qa_run.json` and `sweep.json`
 * in place of the reference's git state.
 *
 * @module
 */

/** Provenance of the program that wrote a record, in place of the reference's git state. */
export interface SourceState {
  /** Whether the working tree had changes (`null`: unknown). */
  dirty: boolean | null;
  /** The commit the program was built from (`null`: unknown). */
  head: string | null;
  /** The program that wrote the record. */
  tool?: string;
}
