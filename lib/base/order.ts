/**
 * The one order of ids and names: by code point, as Python sorts strings (a plain `.sort()` compares UTF-16 units,
 * which puts an astral character before U+E000–U+FFFF).
 *
 * @module
 */

/**
 * Compares strings by Unicode code point, as Python sorts `str` keys (JS's default compares UTF-16 units).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { compareCodePoints } from "./order.ts";
 * deepStrictEqual(["\uFF5E", "\u{1F600}"].sort(compareCodePoints), ["～", "😀"]);
 * ```
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const left = a.charCodeAt(index);
    const right = b.charCodeAt(index);
    if (left === right) continue;
    // Only when both are at or above the surrogate range can UTF-16 order disagree with code point order.
    if (left >= 0xd800 && right >= 0xd800) {
      const leftPoint = a.codePointAt(index)!;
      const rightPoint = b.codePointAt(index)!;
      return leftPoint < rightPoint ? -1 : 1;
    }
    return left < right ? -1 : 1;
  }
  return a.length - b.length;
}
