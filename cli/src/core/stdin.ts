import { fstatSync } from "node:fs";
import { mcError } from "./errors.js";

/**
 * Standard input as the data a command reads. A folder given as input
 * (`mc pipe obj < dir`) reads as empty in Node, without an error: `pipe`
 * stored an empty object and exited 0. It is refused instead.
 */
export function dataStdin(): NodeJS.ReadStream {
  let folder = false;
  try {
    folder = fstatSync(0).isDirectory();
  } catch {
    // A closed standard input reads as empty, as it should.
  }
  if (folder) throw mcError("Unable to read standard input: it is a folder.", undefined, "invalid_argument");
  return process.stdin;
}
