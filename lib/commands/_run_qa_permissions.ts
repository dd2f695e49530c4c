/**
 * What `run-qa` must be granted, each refusal saying which task grants it: the loopback address for the
 * stand-in, the network and the two variables the config names for an endpoint.
 *
 * @module
 */

import { InputError } from "../base/mod.ts";

/** The stand-in listens on the loopback address; without leave to, say which task grants it. */
export function requireLoopbackPermission(): void {
  if (Deno.permissions.querySync({ name: "net", host: "127.0.0.1" }).state === "granted") return;
  throw new InputError(
    "the stand-in answerer listens on 127.0.0.1, which this invocation may not: run it with " +
      "`deno task demo` or `deno task run-qa … --stand-in` (they grant --allow-net=127.0.0.1)",
  );
}

const RUN_QA_HINT = "run it with `deno task run-qa …`";

/**
 * run-qa needs the network and the two variables the config names; `deno task cli` grants neither and would
 * make the variables read as unset, so say which task to use instead of "is not set".
 */
export function requireRunQaPermissions(qa: { api_key_env: string; base_url_env: string }): void {
  const names = [qa.api_key_env, qa.base_url_env];
  const denied = names.filter((variable) =>
    Deno.permissions.querySync({ name: "env", variable }).state !== "granted"
  );
  if (denied.length === 0) return;
  if (Deno.permissions.querySync({ name: "net" }).state !== "granted") {
    throw new InputError(
      `run-qa calls the answer model: ${RUN_QA_HINT} (network access and the variables ${
        names.join(" and ")
      }); ` +
        "`deno task cli` runs the offline commands",
    );
  }
  throw new InputError(
    `run-qa may not read ${denied.join(" and ")}, which the config names: ` +
      `add ${denied.length === 1 ? "it" : "them"} to the run-qa task's --allow-env`,
  );
}

/** The endpoint's host must be granted: say which task grants it. */
export function requireNetPermission(
  baseUrl: string,
  qa: { api_key_env: string; base_url_env: string },
): void {
  const host = new URL(baseUrl).host;
  if (Deno.permissions.querySync({ name: "net", host }).state === "granted") return;
  throw new InputError(
    `run-qa calls the answer model at ${host} (from ${qa.base_url_env}), but this invocation has no network ` +
      `permission for it: ${RUN_QA_HINT}`,
  );
}
