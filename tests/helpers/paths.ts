/** Where the tests find the repository and the reference data. */

/** The repository root, with a trailing slash. */
export const ROOT: string = new URL("../../", import.meta.url).pathname;

/** The shared reference material beside the clone. */
export const SHARED: string = `${ROOT}../shared`;

/** The reference implementation's golden vectors, fixture and fixture run. */
export const GOLDEN: string = `${SHARED}/golden`;
