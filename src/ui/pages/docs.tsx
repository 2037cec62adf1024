// The interactive API reference: Swagger UI (from the swagger-ui-dist package, served by this server) over the
// OpenAPI document at /v1/openapi.json, with "Try it out" calling this same server.
export function DocsPage() {
  return (
    <section class="docs-page">
      <h1 class="visually-hidden">API reference</h1>
      <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
      <div id="swagger-ui" data-spec="/v1/openapi.json">
        <p>The reference needs scripts; without them, read <a href="/v1/openapi.json">the OpenAPI document</a> itself.</p>
      </div>
      <script src="/docs/assets/swagger-ui-bundle.js" />
      <script src="/ui/assets/docs.js" />
    </section>
  );
}
