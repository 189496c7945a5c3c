/** Go strconv.ParseBool as mc uses it for MC_* variables: empty or unset is false. */
export function parseBool(value: string | undefined): boolean {
  if (value === undefined) return false;
  return ["1", "t", "T", "true", "TRUE", "True"].includes(value);
}
