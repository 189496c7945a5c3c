import { isAppError } from "@mc/shared";
import { mcError, s3Code } from "../../../core/errors.js";

const sseCodes = new Set(["", "BadRequest", "InvalidRequest", "InvalidArgument", "InvalidEncryptionAlgorithmError"]);

/**
 * A HEAD or GET of an SSE-C object without its key (or with another key)
 * fails with a bare 400: the SDK then has neither code nor message, and the
 * user would see an empty error. Name the likely cause instead.
 */
export function explainReadError(arg: string, err: unknown): unknown {
  if (isAppError(err) || typeof err !== "object" || err === null) return err;
  const code = s3Code(err);
  const message = (err as { message?: unknown }).message;
  const errno = (err as { code?: unknown }).code;
  if (!sseCodes.has(code) || (code === "" && ((typeof errno === "string" && errno !== "") || (typeof message === "string" && message !== "")))) return err;
  const cause = { ...(err as Record<string, unknown>), code: code || "BadRequest", message: "The object may be encrypted with a customer key (SSE-C): pass the matching key with --enc-c \"alias/prefix=KEY\"" };
  return mcError(`Unable to read \`${arg}\`.`, cause);
}
