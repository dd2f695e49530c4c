/**
 * Where a record came from: the program that wrote it, recorded in `run.json`, `qa_run.json` and `sweep.json`
 * in place of the reference's git state.
 *
 * @module
 */

/** Provenance of the program that wrote a record, in place of the reference's git state. */
export interface SourceState {
  dirty: boolean | null;
  head: string | null;
  tool?: string;
}
