/** Where the tests find the repository. */

/** The repository root, with a trailing slash. */
export const ROOT: string = new URL("../../", import.meta.url).pathname;
