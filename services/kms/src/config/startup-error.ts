/** A startup failure: main prints exactly the message to stderr and exits 1. */
export class StartupError extends Error {
  override readonly name = "StartupError";
}
