import type { CommandClass } from "clipanion";

/** Lifecycle, encryption, notification, watch, select and object-store admin commands. */
export const bucketConfigCommands: CommandClass[] = [];
