import type { CommandClass } from "clipanion";
import { EncryptClearCommand } from "./encrypt-clear.js";
import { EncryptInfoCommand } from "./encrypt-info.js";
import { EncryptSetCommand } from "./encrypt-set.js";
import { IlmRuleAddCommand } from "./ilm-rule-add.js";
import { IlmRuleEditCommand } from "./ilm-rule-edit.js";
import { IlmRuleExportCommand } from "./ilm-rule-export.js";
import { IlmRuleImportCommand } from "./ilm-rule-import.js";
import { IlmRuleListCommand } from "./ilm-rule-list.js";
import { IlmRuleRemoveCommand } from "./ilm-rule-remove.js";

/** Lifecycle, encryption, notification, watch, select and object-store admin commands. */
export const bucketConfigCommands: CommandClass[] = [IlmRuleAddCommand, IlmRuleEditCommand, IlmRuleListCommand, IlmRuleRemoveCommand, IlmRuleExportCommand, IlmRuleImportCommand, EncryptSetCommand, EncryptInfoCommand, EncryptClearCommand];
