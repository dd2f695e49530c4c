/**
 * YAML read as PyYAML 6.0's `yaml.safe_load` reads it: its implicit resolvers for null, bool, int, float and
 * timestamp (YAML 1.1, with PyYAML's own regular expressions: `1e3` is a string, `1.5e+3` a float, `0o17` a
 * string, `017` octal, `1:30` sexagesimal), its constructors (integers exact, as bigint; timestamps as
 * {@linkcode YamlTimestamp}), duplicate keys (the last wins) and its refusal of a tab anywhere but inside a quoted
 * scalar, a comment or a block scalar.
 *
 * Follows PyYAML 6.0's pure-Python loader (`yaml/resolver.py`'s implicit resolvers, `yaml/constructor.py`'s
 * `SafeConstructor`, `yaml/scanner.py`'s tab rules), which the reference harness's `yaml.safe_load` runs.
 *
 * @module
 */

import type { DomainErrorOptions, InputError } from "../base/mod.ts";
import { PY_INT_MAX_STR_DIGITS } from "./json_parse.ts";
import { isCollection, isPair, Lexer, parseDocument, type ScalarTag, visit, type YAMLError } from "yaml";

/** The YAML library's debug switches: it reads them on every token (an env permission) and logs to stdout. */
const LIBRARY_DEBUG_VARIABLES = new Set(["LOG_TOKENS", "LOG_STREAM"]);

/**
 * Runs the YAML library with its debug switches read as unset: no env permission asked for, no token log in the
 * output whatever the environment holds. Parsing is synchronous, so nothing else sees the swapped environment.
 */
function withoutLibraryDebug<T>(parse: () => T): T {
  // The process the library's Node build reads (the bundle's browser build reads none): not imported, so the
  // bundle carries no node:process.
  const process = Reflect.get(globalThis, "process") as
    | { env: Record<string, string | undefined> }
    | undefined;
  if (process === undefined) return parse();
  const env = process.env;
  const hidden = (key: string | symbol) => typeof key === "string" && LIBRARY_DEBUG_VARIABLES.has(key);
  // An empty target: a proxy over the environment's own proxy would have its descriptors read (an env access).
  process.env = new Proxy({}, {
    get: (_, key) => hidden(key) ? undefined : Reflect.get(env, key),
    has: (_, key) => !hidden(key) && Reflect.has(env, key),
  });
  try {
    return parse();
  } finally {
    process.env = env;
  }
}

/** A timestamp as PyYAML constructs it: a `datetime` (aware or naive) or, with no time, a `date`. */
export class YamlTimestamp {
  constructor(
    readonly year: number,
    readonly month: number,
    readonly day: number,
    /** Hour, minute, second, microsecond; undefined for a date alone. */
    readonly time: readonly [number, number, number, number] | undefined,
    /** The zone offset in minutes; undefined when naive. */
    readonly offsetMinutes: number | undefined,
  ) {}
}

const YAML_NULL = /^(?:~|null|Null|NULL|)$/;
const YAML_BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const YAML_INT =
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const YAML_FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const YAML_TIMESTAMP =
  /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/;
const TIMESTAMP_PARTS =
  /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:[Tt]|[ \t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9]{1,2})(?::([0-9]{2}))?))?)?$/;

/**
 * A decimal integer PyYAML's `int()` cannot convert (Python 3.11 refuses more than
 * {@linkcode PY_INT_MAX_STR_DIGITS} digits): held in its place until the document's keys can name it.
 */
class IntTooLong {
  constructor(readonly digits: number) {}
}

/** Python's `int(text)` in base 10: the value, or the marker where it raises for the digits' count. */
function decimalInt(text: string): bigint | IntTooLong {
  return text.length > PY_INT_MAX_STR_DIGITS ? new IntTooLong(text.length) : BigInt(text);
}

function sexagesimal(text: string): bigint | IntTooLong {
  let value = 0n;
  for (const part of text.split(":")) {
    const digit = decimalInt(part);
    if (digit instanceof IntTooLong) return digit;
    value = value * 60n + digit;
  }
  return value;
}

/** PyYAML's `construct_yaml_int` (bases 2, 8 and 16 have no digit limit in Python; base 10 has). */
function constructInt(source: string): bigint | IntTooLong {
  let text = source.replaceAll("_", "");
  let sign = 1n;
  if (text[0] === "-") sign = -1n;
  if (text[0] === "-" || text[0] === "+") text = text.slice(1);
  if (text === "0") return 0n;
  if (text.startsWith("0b")) return sign * BigInt(text);
  if (text.startsWith("0x")) return sign * BigInt(text);
  if (text[0] === "0") return sign * BigInt(`0o${text}`);
  const value = text.includes(":") ? sexagesimal(text) : decimalInt(text);
  return value instanceof IntTooLong ? value : sign * value;
}

/** A value PyYAML refuses, with the dotted field of the document it is at. */
export class YamlFieldError extends SyntaxError {
  constructor(message: string, readonly field: string) {
    super(message);
  }
}

/** Python's words for an integer {@linkcode IntTooLong}, at the first field that holds one. */
function refuseLongIntegers(value: unknown, field: string[] = []): void {
  if (value instanceof IntTooLong) {
    throw new YamlFieldError(
      `Exceeds the limit (${PY_INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${value.digits} digits`,
      field.length === 0 ? "(root)" : field.join("."),
    );
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => refuseLongIntegers(item, [...field, String(index)]));
  } else if (value !== null && typeof value === "object" && !(value instanceof YamlTimestamp)) {
    for (const [key, item] of Object.entries(value)) refuseLongIntegers(item, [...field, key]);
  }
}

/** PyYAML's `construct_yaml_float`. */
function constructFloat(source: string): number {
  let text = source.replaceAll("_", "").toLowerCase();
  let sign = 1;
  if (text[0] === "-") sign = -1;
  if (text[0] === "-" || text[0] === "+") text = text.slice(1);
  if (text === ".inf") return sign * Infinity;
  if (text === ".nan") return NaN;
  if (text.includes(":")) {
    const parts = text.split(":");
    let value = 0;
    for (const part of parts.slice(0, -1)) value = value * 60 + Number(part);
    return sign * (value * 60 + Number(parts[parts.length - 1]));
  }
  return sign * Number(text);
}

/** PyYAML's `construct_yaml_timestamp`; throws where it raises (no such day, an offset of a day or more). */
function constructTimestamp(source: string): YamlTimestamp {
  const match = TIMESTAMP_PARTS.exec(source)!;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate();
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (
    year < 1 || month < 1 || month > 12 || day < 1 || day > (month === 2 ? (leap ? 29 : 28) : daysInMonth)
  ) {
    throw new SyntaxError(`timestamp ${source}: day is out of range for month`);
  }
  if (match[4] === undefined) return new YamlTimestamp(year, month, day, undefined, undefined);
  const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6])];
  if (hour > 23 || minute > 59 || second > 59) {
    throw new SyntaxError(`timestamp ${source}: time is out of range`);
  }
  // The fraction is cut (not rounded) to six digits.
  const micro = match[7] ? Number(match[7].slice(0, 6).padEnd(6, "0")) : 0;
  let offset: number | undefined;
  if (match[9] !== undefined) {
    offset = (Number(match[10]) * 60 + Number(match[11] ?? 0)) * (match[9] === "-" ? -1 : 1);
    if (Math.abs(offset) >= 24 * 60) {
      throw new SyntaxError(`timestamp ${source}: offset must be under 24 hours`);
    }
  } else if (match[8] === "Z") offset = 0;
  return new YamlTimestamp(year, month, day, [hour, minute, second, micro], offset);
}

const PYYAML_SCALARS: ScalarTag[] = [
  {
    // PyYAML resolves a plain `=` to the YAML 1.1 value tag, which safe_load has no constructor for.
    tag: "tag:yaml.org,2002:value",
    default: true,
    test: /^=$/,
    resolve: (text, onError) => {
      onError("could not determine a constructor for the tag 'tag:yaml.org,2002:value'");
      return text;
    },
  },
  { tag: "tag:yaml.org,2002:null", default: true, test: YAML_NULL, resolve: () => null },
  {
    tag: "tag:yaml.org,2002:bool",
    default: true,
    test: YAML_BOOL,
    resolve: (text) => /^(?:y|t|o[nN])/i.test(text) && !/^of/i.test(text),
  },
  { tag: "tag:yaml.org,2002:int", default: true, test: YAML_INT, resolve: constructInt },
  { tag: "tag:yaml.org,2002:float", default: true, test: YAML_FLOAT, resolve: constructFloat },
  {
    tag: "tag:yaml.org,2002:timestamp",
    default: true,
    test: YAML_TIMESTAMP,
    resolve: (text, onError) => {
      try {
        return constructTimestamp(text);
      } catch (error) {
        onError((error as Error).message);
        return text;
      }
    },
  },
];

const REPLACED = new Set(PYYAML_SCALARS.map((tag) => tag.tag));

/** Where PyYAML's scanner stops at a tab: anywhere but a quoted scalar, a comment or block scalar content. */
function findForbiddenTab(text: string): number {
  if (!text.includes("\t")) return -1;
  let offset = 0;
  let previous = "";
  let blockHeader = false;
  for (const token of new Lexer().lex(text)) {
    const tabAt = token.indexOf("\t");
    const afterScalarMark = previous === "\u001f";
    const allowed = token.startsWith("#") ||
      token.startsWith("'") || token.startsWith('"') || (afterScalarMark && blockHeader);
    if (tabAt >= 0 && !allowed) return offset + tabAt;
    if (token.startsWith("|") || token.startsWith(">")) blockHeader = true;
    else if (afterScalarMark) blockHeader = false;
    if (token !== "\u001f" && token !== "\u0002") offset += token.length;
    previous = token;
  }
  return -1;
}

/**
 * Parses YAML text as PyYAML's `safe_load`, through the YAML library under PyYAML's resolvers and constructors;
 * throws `SyntaxError` with a one-line reason where it raises.
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { parsePyYaml } from "./yaml.ts";
 * deepStrictEqual(parsePyYaml("a: 1e3\nb: 1.5e+3\nc: 017\nd: off\na: 2"), { a: 2n, b: 1500, c: 15n, d: false });
 * deepStrictEqual(parsePyYaml("a: &x 1 # anchored\nb: *x"), { a: 1n, b: 1n });
 * ```
 */
export function parsePyYaml(text: string): unknown {
  return withoutLibraryDebug(() => parseWithResolvers(text));
}

function parseWithResolvers(text: string): unknown {
  const tab = findForbiddenTab(text);
  if (tab >= 0) {
    throw new SyntaxError(
      `found a tab character where PyYAML does not allow one ${lineAndColumn(text, tab)}`,
    );
  }
  const document = parseDocument(text, {
    version: "1.1",
    uniqueKeys: false,
    customTags: (tags) => [
      ...tags.filter((tag) => typeof tag === "string" || !REPLACED.has(tag.tag)),
      ...PYYAML_SCALARS,
    ],
    prettyErrors: false,
    // The library prints its warnings (a second, Node-style line); what PyYAML refuses is refused below instead.
    logLevel: "error",
  });
  const [error] = document.errors;
  if (error !== undefined) throw error;
  const warning = document.warnings.find((warning) => !PYYAML_ACCEPTS.has(warning.code));
  if (warning !== undefined) {
    throw new SyntaxError(`${refusal(warning)} ${lineAndColumn(text, warning.pos[0])}`);
  }
  refuseCollectionKeys(text, document);
  const value = document.toJS();
  refuseLongIntegers(value);
  refuseLoneSurrogates(value);
  return value;
}

/** The library's warnings PyYAML has no objection to: a flow collection indented less than its block parent. */
const PYYAML_ACCEPTS = new Set(["BAD_INDENT"]);
/** The tags safe_load constructs (`tag:yaml.org,2002:` …): one of them on a value it does not fit is refused. */
const SAFE_TAGS = new Set(
  ["null", "bool", "int", "float", "binary", "timestamp", "omap", "pairs", "set", "str", "seq", "map"].map(
    (name) => `tag:yaml.org,2002:${name}`,
  ),
);

/** What PyYAML says where the library only warns: no constructor for a tag, or the library's own words. */
function refusal(warning: YAMLError): string {
  const tag = /^Unresolved tag: (.*)$/.exec(warning.message)?.[1];
  if (tag === undefined) return warning.message;
  if (SAFE_TAGS.has(tag)) return `the tag '${tag}' does not fit its value`;
  return `could not determine a constructor for the tag '${tag}'`;
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  return `(line ${(before.match(/\n/g)?.length ?? 0) + 1}, column ${offset - before.lastIndexOf("\n")})`;
}

/** A sequence or mapping as a key: PyYAML finds it unhashable, where the library would stringify it. */
function refuseCollectionKeys(text: string, document: ReturnType<typeof parseDocument>): void {
  visit(document, {
    Pair(_, pair) {
      if (isPair(pair) && isCollection(pair.key)) {
        throw new SyntaxError(`found unhashable key ${lineAndColumn(text, pair.key.range?.[0] ?? 0)}`);
      }
    },
  });
}

/** PyYAML reads `"\ud800"` as a lone surrogate, which the reference then cannot write; refuse it here. */
function refuseLoneSurrogates(value: unknown): void {
  if (typeof value === "string") {
    if (!value.isWellFormed()) {
      const code = value.charCodeAt(value.search(/[\uD800-\uDFFF]/)).toString(16);
      throw new SyntaxError(`lone surrogate \\u${code}: refused, as no UTF-8 output can hold it`);
    }
  } else if (Array.isArray(value)) {
    for (const item of value) refuseLoneSurrogates(item);
  } else if (value !== null && typeof value === "object" && !(value instanceof YamlTimestamp)) {
    for (const [key, item] of Object.entries(value)) {
      refuseLoneSurrogates(key);
      refuseLoneSurrogates(item);
    }
  }
}

/**
 * {@linkcode parsePyYaml} for a file the user gave: a document that does not parse is one line naming the file
 * and the parser's first line, as `ErrorType` (bad input: exit 2).
 *
 * @example
 * ```ts
 * import { throws } from "node:assert/strict";
 * import { InputError } from "../base/errors.ts";
 * import { parsePyYamlFile } from "./yaml.ts";
 * throws(() => parsePyYamlFile("a: [1", "grid.yaml", InputError), { name: "InputError", message: /^grid\.yaml: not valid YAML: / });
 * ```
 */
export function parsePyYamlFile(
  text: string,
  path: string,
  ErrorType: new (message: string, options: DomainErrorOptions) => InputError,
): unknown {
  try {
    return parsePyYaml(text);
  } catch (error) {
    const field = error instanceof YamlFieldError ? error.field : undefined;
    throw new ErrorType(`not valid YAML: ${(error as Error).message.split("\n")[0]}`, {
      path,
      field,
      cause: error,
    });
  }
}
