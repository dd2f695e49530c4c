/**
 * Duplicate fact ids: the reference looks scores up by id, so facts sharing an id share the score computed
 * last for it. Found without a `Map` of a million strings where the input is large.
 *
 * @module
 */

import { fnv1a } from "../base/mod.ts";
import { RADIX_THRESHOLD, radixOrder32 } from "./_radix.ts";

/**
 * For each position, the last position holding the same id — or `undefined` when all ids are distinct (the
 * usual case). Sorts the ids' FNV-1a hashes (a radix sort: sequential memory, unlike a hash table or a `Map` of
 * a million strings) and compares strings only where hashes collide.
 */
export function lastIndexById(
  ids: readonly string[],
  hashes: Uint32Array<ArrayBuffer> | undefined,
): Int32Array | undefined {
  const count = ids.length;
  if (count < RADIX_THRESHOLD) {
    const lastOf = new Map<string, number>();
    for (let index = 0; index < count; index++) lastOf.set(ids[index], index);
    if (lastOf.size === count) return undefined;
    return Int32Array.from(ids, (id) => lastOf.get(id)!);
  }
  // The hashes are scratch: the sort works in their array.
  const [byHash, sortedHashes] = radixOrder32(hashes ?? Uint32Array.from(ids, fnv1a));
  let firstOf: Int32Array | undefined;
  for (let rank = 0; rank < count;) {
    const hash = sortedHashes[rank];
    let end = rank + 1;
    while (end < count && sortedHashes[end] === hash) end++;
    // Positions with equal hashes are in ascending order (the sort is stable); match each to its first equal id.
    for (let member = rank + 1; member < end; member++) {
      const index = byHash[member];
      for (let earlier = rank; earlier < member; earlier++) {
        if (ids[byHash[earlier]] === ids[index]) {
          firstOf ??= Int32Array.from({ length: count }, (_, position) => position);
          firstOf[index] = firstOf[byHash[earlier]];
          break;
        }
      }
    }
    rank = end;
  }
  if (firstOf === undefined) return undefined;
  const lastOfFirst = new Int32Array(count);
  for (let index = 0; index < count; index++) lastOfFirst[firstOf[index]] = index;
  const last = new Int32Array(count);
  for (let index = 0; index < count; index++) last[index] = lastOfFirst[firstOf[index]];
  return last;
}
