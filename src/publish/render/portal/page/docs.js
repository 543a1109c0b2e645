// The API reference page: Swagger UI over the deployment's own OpenAPI document, nothing fetched elsewhere.
window.addEventListener("DOMContentLoaded", async () => {
  const { openapi, base } = document.body.dataset;
  const spec = await (await fetch(openapi)).json();
  // Built without --base-url, the document names a stand-in (http://127.0.0.1:8080): this host,
  // which serves this page and the document, is offered first, so that "Try it out" reaches it.
  if (!base) {
    const here = new URL("..", window.location.href).href.replace(/\/$/, "");
    const others = (spec.servers ?? []).filter((server) => server.url !== here);
    spec.servers = [{ url: here, description: "this host" }, ...others];
  }
  mendAccessibility(document.getElementById("swagger-ui"));
  const ui = window.SwaggerUIBundle({
    spec,
    dom_id: "#swagger-ui",
    // The default validator badge asks a public server about the document: keep the page offline.
    validatorUrl: null,
    deepLinking: true,
    onComplete: () => foldAtFirst(ui),
  });
});

// Sections listed for the tools that read the document, folded when the page opens: a reader
// comes for the data's routes, not for the portal's own files or the preflight of every path.
const FOLDED_AT_FIRST = ["portal", "CORS preflight"];

/**
 * Folds those sections, but for one a link leads into (`#/CORS%20preflight/…`). Straight through
 * the store: `layoutActions.show` would also put `#/` in the address bar (deep linking's wrapper),
 * a step of history per section, and the link the page was opened with lost.
 */
function foldAtFirst(ui) {
  const linked = sectionLinked(window.location.hash);
  for (const tag of FOLDED_AT_FIRST)
    if (tag !== linked)
      ui.getStore().dispatch({
        type: "layout_show",
        payload: { thing: ["operations-tag", tag], shown: false },
      });
}

/** The section a deep link names (`#/CORS%20preflight/…` → "CORS preflight"), if it can be read. */
function sectionLinked(hash) {
  try {
    return decodeURIComponent(hash.replace(/^#!?\//, "").split("/")[0]);
  } catch {
    return null; // not percent-encoding: no section of ours
  }
}

/**
 * What Swagger UI renders below WCAG 2.1 AA, mended as it renders (it re-renders as operations
 * open): its server choice has no name, and each operation's summary, a button, holds a link (the
 * operation's deep link) that assistive technologies reach inside the button. The link becomes
 * its text: opening the operation puts the same address in the address bar (deepLinking). An
 * example body, which scrolls when wider than its box, takes the keyboard's focus.
 */
function mendAccessibility(root) {
  const mend = () => {
    const servers = root.querySelector("select#servers:not([aria-label])");
    if (servers) servers.setAttribute("aria-label", "Server");
    for (const link of root.querySelectorAll(".opblock-summary-control a[href]")) {
      link.removeAttribute("href");
    }
    // An example body wider than its box scrolls: the keyboard must reach it to scroll it.
    for (const example of root.querySelectorAll(".microlight:not([tabindex])")) {
      example.setAttribute("tabindex", "0");
    }
  };
  new MutationObserver(mend).observe(root, { childList: true, subtree: true });
}
