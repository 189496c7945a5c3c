// Types of slim-deps.mjs for the TypeScript tests that import it.
import type { Plugin } from "esbuild";

export declare const slimDeps: Plugin;
export declare function lodashFunctionsOf(source: string, file: string): string[];
