// The commands that speak MinIO's admin API (issue 24), registered by
// commands/index.ts in one line. Each lives at its command path under commands/.
import { QuotaClearCommand } from "../commands/quota/clear.js";
import { QuotaInfoCommand } from "../commands/quota/info.js";
import { QuotaSetCommand } from "../commands/quota/set.js";

export const minioCommands = [QuotaSetCommand, QuotaInfoCommand, QuotaClearCommand];
