import type { CommandClass } from "clipanion";
import { EncryptClearCommand } from "../encrypt/clear.js";
import { EncryptInfoCommand } from "../encrypt/info.js";
import { EncryptSetCommand } from "../encrypt/set.js";
import { EventAddCommand } from "../event/add.js";
import { EventListCommand } from "../event/list.js";
import { EventRemoveCommand } from "../event/remove.js";
import { IlmRuleAddCommand } from "../ilm/rule/add.js";
import { IlmRuleEditCommand } from "../ilm/rule/edit.js";
import { IlmRuleExportCommand } from "../ilm/rule/export.js";
import { IlmRuleImportCommand } from "../ilm/rule/import.js";
import { IlmRuleListCommand } from "../ilm/rule/list.js";
import { IlmRuleRemoveCommand } from "../ilm/rule/remove.js";
import { SqlCommand } from "../sql.js";
import { WatchCommand } from "../watch.js";

/** Lifecycle, encryption, notification, watch, select and object-store admin commands. */
export const bucketConfigCommands: CommandClass[] = [IlmRuleAddCommand, IlmRuleEditCommand, IlmRuleListCommand, IlmRuleRemoveCommand, IlmRuleExportCommand, IlmRuleImportCommand, EncryptSetCommand, EncryptInfoCommand, EncryptClearCommand, EventAddCommand, EventListCommand, EventRemoveCommand, WatchCommand, SqlCommand];
