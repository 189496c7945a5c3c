import { suite } from "uvu";
import * as assert from "uvu/assert";
import { renderNotes } from "./notes-render.js";

const render = suite("release notes rendering");

render("should render Markdown and take the first paragraph as summary", () => {
  const out = renderNotes("# Title\n\nFirst *paragraph* & more.\n\n- item\n");
  assert.match(out.html, "<h1>Title</h1>");
  assert.match(out.html, "<em>paragraph</em>");
  assert.is(out.summary, "First paragraph & more.");
});

render("should leave no script, event handler or javascript: URL :: hostile notes", () => {
  const hostile = [
    "Hello <script>window.pwned = 1</script>",
    '<img src="x" onerror="window.pwned = 1">',
    '<a href="javascript:alert(1)">click</a> [md link](javascript:alert(2))',
    '<div onclick="x()" style="background:url(javascript:alert(3))">div</div>',
    '<iframe src="https://evil.example"></iframe><svg onload="x()"></svg>',
    "[data](data:text/html;base64,PHNjcmlwdD4=)",
  ].join("\n\n");
  const { html } = renderNotes(hostile);
  for (const bad of ["<script", "onerror", "onclick", "onload", "javascript:", "<iframe", "<svg", "data:text/html", "style="]) {
    assert.not.match(html.toLowerCase(), bad, bad);
  }
  assert.match(html, "click");
});

render.run();
