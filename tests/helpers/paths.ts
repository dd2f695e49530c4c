/** Where the tests find the repository and the reference data it carries. */

/** The repository root, with a trailing slash. */
export const ROOT: string = new URL("../../", import.meta.url).pathname;

/**
 * The reference implementation's golden vectors, fixture and fixture run: a byte-identical copy of the shared
 * reference data, listed with the SHA-256 of every file in `tests/pins/golden.SHA256SUMS`.
 */
export const GOLDEN: string = `${ROOT}tests/golden`;

/** The SHA-256 lists the tests hold the repository's data to. */
export const PINS: string = `${ROOT}tests/pins`;
