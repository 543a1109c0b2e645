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
  window.SwaggerUIBundle({
    spec,
    dom_id: "#swagger-ui",
    // The default validator badge asks a public server about the document: keep the page offline.
    validatorUrl: null,
    deepLinking: true,
  });
});
