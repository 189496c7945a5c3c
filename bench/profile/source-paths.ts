// Imported first by the profile harnesses: the KMS they start runs its
// TypeScript sources through tsx (KMS_NO_BUNDLE=1), not the bundle, so each
// profile frame names its source file and the category rules can match it.
// The code that runs is the same; only start-up differs, and the harnesses
// keep only the measured window's samples.
process.env["KMS_NO_BUNDLE"] = "1";

export {};
