/**
 * The assertions the tests use, with `@std/assert` names and signatures, built on `node:assert/strict`
 * (JSR is unreachable here). Moving to `@std/assert` is a change to this file alone.
 */
import nodeAssert from "node:assert/strict";

export function assert(condition: unknown, message?: string): asserts condition {
  nodeAssert.ok(condition, message);
}

export function assertEquals<T>(actual: T, expected: T, message?: string): void {
  nodeAssert.deepStrictEqual(actual, expected, message);
}

export function assertNotEquals<T>(actual: T, expected: T, message?: string): void {
  nodeAssert.notDeepStrictEqual(actual, expected, message);
}

export function assertMatch(actual: string, expected: RegExp, message?: string): void {
  nodeAssert.match(actual, expected, message);
}

export function assertStringIncludes(actual: string, expected: string, message?: string): void {
  nodeAssert.ok(
    actual.includes(expected),
    message ?? `expected ${JSON.stringify(actual)} to include ${JSON.stringify(expected)}`,
  );
}

// deno-lint-ignore no-explicit-any
type ErrorClass<E extends Error> = new (...args: any[]) => E;

export function assertThrows<E extends Error = Error>(
  fn: () => unknown,
  errorClass?: ErrorClass<E>,
  includes?: string,
): E {
  try {
    fn();
  } catch (error) {
    if (errorClass && !(error instanceof errorClass)) {
      throw new Error(
        `expected ${errorClass.name}, got ${(error as Error)?.name}: ${(error as Error)?.message}`,
      );
    }
    if (includes !== undefined) assertStringIncludes((error as Error).message, includes);
    return error as E;
  }
  throw new Error("expected the function to throw");
}

export async function assertRejects<E extends Error = Error>(
  fn: () => Promise<unknown>,
  errorClass?: ErrorClass<E>,
  includes?: string,
): Promise<E> {
  try {
    await fn();
  } catch (error) {
    if (errorClass && !(error instanceof errorClass)) {
      throw new Error(
        `expected ${errorClass.name}, got ${(error as Error)?.name}: ${(error as Error)?.message}`,
      );
    }
    if (includes !== undefined) assertStringIncludes((error as Error).message, includes);
    return error as E;
  }
  throw new Error("expected the promise to reject");
}
