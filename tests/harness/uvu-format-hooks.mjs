// Loader hooks for the test runner. uvu's failure formatter assumes an error's
// `details` is a string (as its own assertions make it) and calls `.split` on
// it; our AppError carries a details object and ConnectError an array, so the
// formatter threw, uvu's `finally` swallowed the throw, the rest of the suite
// never ran and the run printed "(3 / 8)" with no name and no reason. This
// rewrites that one line as uvu is loaded (the helper goes at the end, so
// uvu's line numbers stay) so any details print as text. If a
// new uvu changes the line, loading fails loudly instead of hiding again.
const target = "if (details) str += GUTTER + details.split('\\n').join(GUTTER);";
const replacement =
  "if (details) str += GUTTER + (typeof details === 'string' ? details : __detailsText(details)).split('\\n').join(GUTTER);";
const helper =
  "\nfunction __detailsText(d) { try { return JSON.stringify(d) ?? String(d); } catch { return String(d); } }\n";

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (!/\/node_modules\/uvu\/dist\/index\.mjs$/.test(url)) return result;
  const source = String(result.source);
  if (!source.includes(target)) {
    throw new Error(`tests/harness/uvu-format-hooks.mjs: uvu's failure formatter changed; update the rewrite (${url})`);
  }
  return { ...result, source: source.replace(target, replacement) + helper };
}
