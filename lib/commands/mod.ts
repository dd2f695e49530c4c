/**
 * The commands, each one module that declares its name, help, flags and `run`, and the program that runs them
 * (`_program.ts`).
 *
 * @module
 */

export type {
  Command,
  CommandInput,
  FlagDeclaration,
  FlagTable,
  FlagValues,
  Io,
  TestSeams,
} from "./_command.ts";
export { commandHelp, programHelp, usageLine } from "./_help.ts";
export { parseCommandArguments, type ParsedArguments, suggestion } from "./_parse.ts";
export { COMMAND_NAMES, loadAllCommands, loadCommand, runProgram } from "./_program.ts";
export { SOURCE_STATE, VERSION } from "./_version.ts";
