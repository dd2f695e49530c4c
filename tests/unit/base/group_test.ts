import { groupBy } from "../../../lib/base/group.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("groupBy: groups in order of first appearance, members in input order, keys compared by value", () => {
  const rows = [
    { source: "s", capacity: 7, id: 1 },
    { source: "s", capacity: 5, id: 2 },
    { source: "s", capacity: 7, id: 3 },
    { source: "t", capacity: 7, id: 4 },
  ];
  const groups = groupBy(rows, (row) => [row.source, row.capacity]);
  assertEquals(groups.map((group) => group.map((row) => row.id)), [[1, 3], [2], [4]]);
  // "7" and 7 are different keys, as they are different values.
  assertEquals(groupBy([{ k: 7 }, { k: "7" }], (row) => [row.k]).length, 2);
  assertEquals(groupBy([], () => []), []);
});
