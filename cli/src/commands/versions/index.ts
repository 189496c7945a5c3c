import type { CommandClass } from "clipanion";
import { AnonymousGetCommand } from "../anonymous/get.js";
import { AnonymousLinksCommand } from "../anonymous/links.js";
import { AnonymousListCommand } from "../anonymous/list.js";
import { AnonymousSetJsonCommand } from "../anonymous/set-json.js";
import { AnonymousSetCommand } from "../anonymous/set.js";
import { LegalholdClearCommand } from "../legalhold/clear.js";
import { LegalholdInfoCommand } from "../legalhold/info.js";
import { LegalholdSetCommand } from "../legalhold/set.js";
import { RetentionClearCommand } from "../retention/clear.js";
import { RetentionInfoCommand } from "../retention/info.js";
import { RetentionSetCommand } from "../retention/set.js";
import { TagListCommand } from "../tag/list.js";
import { TagRemoveCommand } from "../tag/remove.js";
import { TagSetCommand } from "../tag/set.js";
import { UndoCommand } from "../undo.js";
import { VersionEnableCommand } from "../version/enable.js";
import { VersionInfoCommand } from "../version/info.js";
import { VersionSuspendCommand } from "../version/suspend.js";

/** Versioning, tags, object lock, legal hold and anonymous-access commands. */
export const versionCommands: CommandClass[] = [
  TagSetCommand,
  TagListCommand,
  TagRemoveCommand,
  VersionEnableCommand,
  VersionSuspendCommand,
  VersionInfoCommand,
  UndoCommand,
  RetentionSetCommand,
  RetentionClearCommand,
  RetentionInfoCommand,
  LegalholdSetCommand,
  LegalholdClearCommand,
  LegalholdInfoCommand,
  AnonymousSetCommand,
  AnonymousSetJsonCommand,
  AnonymousGetCommand,
  AnonymousListCommand,
  AnonymousLinksCommand,
];
