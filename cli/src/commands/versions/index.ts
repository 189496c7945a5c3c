import type { CommandClass } from "clipanion";

/** Versioning, tags, object lock, legal hold and anonymous-access commands. */
export const versionCommands: CommandClass[] = [];
