/**
 * The answer model's credentials: read only from the two environment variables the config names, never written
 * anywhere.
 *
 * @module
 */

import type { ProtocolConfig } from "../../protocol/mod.ts";
import { InputError } from "../../base/mod.ts";

/** Where the answer model lives and the key to call it with. Never written anywhere. */
export interface Credentials {
  apiKey: string;
  baseUrl: string;
}

/**
 * Why `key` cannot be sent as it is in `Authorization: Bearer <key>`, if it cannot: a character no HTTP header
 * carries (a control character such as a newline or `\x7f`, or any beyond ASCII, such as `é` or `к`), or
 * whitespace at its end, which a header drops. Never quotes the key or its characters.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { apiKeyHeaderProblem } from "./credentials.ts";
 * deepStrictEqual([apiKeyHeaderProblem("sk-1a2b"), apiKeyHeaderProblem("sk-1a\n2b"), apiKeyHeaderProblem("sk-1a ")], [
 *   undefined,
 *   "holds a character an HTTP header cannot carry (a control character or one beyond ASCII)",
 *   "ends in whitespace, which an HTTP header drops",
 * ]);
 * ```
 */
export function apiKeyHeaderProblem(key: string): string | undefined {
  if (/[^\t\x20-\x7e]/.test(key)) {
    return "holds a character an HTTP header cannot carry (a control character or one beyond ASCII)";
  }
  if (/[\t ]$/.test(key)) return "ends in whitespace, which an HTTP header drops";
  return undefined;
}

/**
 * Reads the API key and base URL from exactly the two environment variables the config names. A missing or
 * empty one is an {@linkcode InputError} naming the variable (never a value), and so is a key no HTTP header
 * can carry ({@linkcode apiKeyHeaderProblem}); the base URL must be http(s).
 *
 * @example
 * ```ts
 * import { deepStrictEqual, throws } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { InputError } from "../../base/errors.ts";
 * import { resolveCredentials } from "./credentials.ts";
 * const { config } = await loadContracts(embeddedSources());
 * const env: Record<string, string> = { [config.qa.api_key_env]: "sk-test", [config.qa.base_url_env]: "https://llm.test/v1" };
 * deepStrictEqual(resolveCredentials(config, (name) => env[name]), { apiKey: "sk-test", baseUrl: "https://llm.test/v1" });
 * throws(() => resolveCredentials(config, () => undefined), InputError); // names the variable, never a value
 * ```
 */
export function resolveCredentials(
  config: ProtocolConfig,
  env: (name: string) => string | undefined,
): Credentials {
  const wanted = [
    [config.qa.api_key_env, "qa.api_key_env"],
    [config.qa.base_url_env, "qa.base_url_env"],
  ] as const;
  const missing = wanted.filter(([name]) => (env(name) ?? "") === "");
  if (missing.length > 0) {
    // Every unset variable at once, so that one run tells the whole story.
    const names = missing.map(([name, field]) => `${name} (the config's ${field})`).join(" and ");
    throw new InputError(
      `environment variable${missing.length === 1 ? "" : "s"} ${names} ${
        missing.length === 1 ? "is" : "are"
      } not set`,
    );
  }
  const apiKey = env(config.qa.api_key_env)!;
  const baseUrl = env(config.qa.base_url_env)!;
  // Refused here, before any call: sent, it would fail every attempt of every row as a network error.
  const keyProblem = apiKeyHeaderProblem(apiKey);
  if (keyProblem !== undefined) {
    throw new InputError(
      `environment variable ${config.qa.api_key_env} (the config's qa.api_key_env) ${keyProblem}`,
    );
  }
  let scheme: string;
  try {
    scheme = new URL(baseUrl).protocol;
  } catch {
    throw new InputError(`environment variable ${config.qa.base_url_env} is not a URL`);
  }
  if (scheme !== "http:" && scheme !== "https:") {
    throw new InputError(
      `environment variable ${config.qa.base_url_env} must be an http(s) URL, got scheme ${scheme}`,
    );
  }
  return { apiKey, baseUrl };
}
