// What main.ts knows of every command before it runs one: its paths and its
// one-line description, and how to load its class. Under tsx this module
// loads every command (src/commands/index.ts); in the bundle, scripts/build.mjs
// replaces it with the same list written out as data, each class behind a
// require() that esbuild evaluates only when called: `mc ls` then runs none
// of the other ~200 command modules, nor the libraries only they use.
import type { BaseContext, CommandClass } from "clipanion";
import { commands } from "./commands/index.js";

export interface CommandEntry {
  readonly paths: string[][];
  readonly usage: { readonly description: string };
  load(): CommandClass<BaseContext>;
}

export const registry: readonly CommandEntry[] = commands.map((command) => ({
  paths: command.paths ?? [],
  usage: { description: command.usage?.description ?? "" },
  load: () => command as CommandClass<BaseContext>,
}));
