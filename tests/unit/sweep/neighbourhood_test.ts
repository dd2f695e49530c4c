import { assertEquals } from "../../helpers/assert.ts";
import { placePublished, shortfallsAt } from "../../../lib/sweep/mod.ts";
import { handMade } from "../../helpers/grids.ts";

Deno.test("placement: the neighbourhood is the holding region connected to the published point, one step at a time", () => {
  // Weights in order: (1,0,0) (.5,.5,0) (.5,0,.5) (0,1,0) (0,.5,.5) (0,0,1); published (.5,.5,0).
  const result = handMade([5, 6, 9, 4, 7, 9], 5);
  const placement = placePublished(result, [7]);
  assertEquals(placement.published, [1]);
  // A step moves 0.5 of weight between two weights: (1,0,0), (.5,0,.5) and (0,.5,.5) touch the published point
  // and hold; (0,0,1) holds, touching (.5,0,.5). (0,1,0) keeps fewer.
  assertEquals(placement.neighbourhood, [0, 1, 2, 4, 5]);
  assertEquals(placement.shortfalls, [{ point: 3, steps: 1 }]);
  assertEquals(shortfallsAt(result, 3), [{ group: result.groups[0], hybrid: 4, confidence: 5 }]);
  // Cut off by a failing ring, a holding point is outside the neighbourhood.
  const island = placePublished(handMade([4, 6, 4, 4, 4, 9], 5), [7]);
  assertEquals(island.neighbourhood, [1]);
  assertEquals(island.shortfalls.map((s) => [s.point, s.steps]), [[0, 1], [2, 1], [3, 1], [4, 1]]);
  // When the published point itself keeps fewer, there is no neighbourhood.
  assertEquals(placePublished(handMade([9, 4, 9, 9, 9, 9], 5), [7]).neighbourhood, []);
});
