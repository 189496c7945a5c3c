// The release-notes page in the browser: filters by component and searches
// release ids and notes through ReleaseService over Connect-Web, then shows
// or hides the server-rendered entries. It never inserts HTML of its own.
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { ReleaseService } from "@mc/releases/gen/releases/v1/releases_pb.js";

const root = document.querySelector<HTMLElement>("[data-releases]");
const form = document.querySelector<HTMLFormElement>("#filters");
const search = document.querySelector<HTMLInputElement>("#search");
const component = document.querySelector<HTMLSelectElement>("#component");
const status = document.querySelector<HTMLElement>("#status");

function setUpCopyButtons(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
    button.hidden = false;
    button.addEventListener("click", () => {
      const text = button.dataset.copy ?? "";
      void navigator.clipboard.writeText(text).then(
        () => {
          const label = button.textContent;
          button.textContent = "Copied";
          setTimeout(() => (button.textContent = label), 1500);
        },
        () => (button.textContent = "Copy failed"),
      );
    });
  }
}

function setUpFilters(product: string): void {
  if (!form || !search || !component || !status || !root) return;
  const client = createClient(ReleaseService, createConnectTransport({ baseUrl: location.origin }));
  const articles = [...root.querySelectorAll<HTMLElement>("article[data-release]")];
  const total = articles.length;
  let generation = 0;
  form.hidden = false;

  async function apply(): Promise<void> {
    const query = search?.value.trim() ?? "";
    const comp = component?.value ?? "";
    const mine = ++generation;
    if (query === "" && comp === "") {
      for (const a of articles) a.hidden = false;
      if (status) status.textContent = `${total} releases`;
      return;
    }
    if (status) status.textContent = "Searching…";
    try {
      // "All components" is no component filter: a set one must name a component.
      const res = await client.listReleases({ product, ...(comp === "" ? {} : { component: comp }), query });
      if (mine !== generation) return;
      const keep = new Set(res.releases.map((r) => `${r.component}/${r.releaseId}`));
      let shown = 0;
      for (const a of articles) {
        a.hidden = !keep.has(`${a.dataset.component}/${a.dataset.release}`);
        if (!a.hidden) shown += 1;
      }
      if (status) status.textContent = `${shown} of ${total} releases`;
    } catch (err) {
      if (mine === generation && status) status.textContent = `Search failed: ${err instanceof Error ? err.message : "error"}`;
    }
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  search.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => void apply(), 200);
  });
  component.addEventListener("change", () => void apply());
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void apply();
  });
}

setUpCopyButtons();
if (root?.dataset.product) setUpFilters(root.dataset.product);
