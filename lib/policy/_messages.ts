/**
 * How a policy's failure is quoted in a refusal.
 *
 * @module
 */

/** The first line of an error as `Name: message` (a policy's stack or a multi-line message stays out). */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.split("\n")[0];
}
