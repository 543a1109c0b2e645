// The API reference page: Swagger UI over the deployment's own OpenAPI document, nothing fetched elsewhere.
window.addEventListener("DOMContentLoaded", () => {
  window.SwaggerUIBundle({
    url: document.body.dataset.openapi,
    dom_id: "#swagger-ui",
    // The default validator badge asks a public server about the document: keep the page offline.
    validatorUrl: null,
    deepLinking: true,
  });
});
