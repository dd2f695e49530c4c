/**
 * zod/mini with zod's English messages: every schema module imports `z` from here (`import * as z from
 * "./zod.ts"`), so each issue reads as zod classic's (`Invalid input: expected string, received number`) while
 * the bundle carries only the parts of zod in use.
 *
 * @module
 */

import { config } from "zod/mini";
import en from "zod/v4/locales/en.js";

// zod/mini loads no locale (its messages would read `Invalid input`); set before any schema module runs.
config(en());

export * from "zod/mini";
