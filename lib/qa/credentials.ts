/**
 * The answer model's credentials: read only from the two environment variables the config names, never written
 * anywhere.
 *
 * @module
 */

import type { ProtocolConfig } from "../protocol/config.ts";
import { InputError } from "../base/errors.ts";

/** Where the answer model lives and the key to call it with. Never written anywhere. */
export interface Credentials {
  apiKey: string;
  baseUrl: string;
}

/**
 * Reads the API key and base URL from exactly the two environment variables the config names. A missing or
 * empty one is an {@linkcode InputError} naming the variable (never a value); the base URL must be http(s).
 *
 * @example
 * ```ts
 * import { deepStrictEqual, throws } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../protocol/contracts.ts";
 * import { InputError } from "../base/errors.ts";
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
  // A bearer token travels in a header: visible ASCII only. Name the place, never the character or the key.
  const bad = [...apiKey].findIndex((char) => !/^[\x21-\x7e]$/.test(char));
  if (bad >= 0) {
    throw new InputError(
      `environment variable ${config.qa.api_key_env} holds a character an HTTP header cannot carry ` +
        `(its character ${bad + 1}); nothing was sent`,
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
