import { InputError } from "../../../lib/base/errors.ts";
import { responsePath } from "../../../lib/qa/run/run_dir.ts";
import { assertEquals, assertThrows } from "../../helpers/assert.ts";

Deno.test("a row id that could leave the responses directory is refused", () => {
  assertEquals(responsePath("d", "a__confidence"), "d/responses/a__confidence.json");
  for (const id of ["../x", "a/b", "a\\b", ".hidden"]) assertThrows(() => responsePath("d", id), InputError);
});
