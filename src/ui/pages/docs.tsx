// The interactive API reference: Swagger UI (from the swagger-ui-dist package, served by this server) over the
// OpenAPI document at /v1/openapi.json, with "Try it out" calling this same server.
import { useT } from '../messages.js';

export function DocsPage() {
  const t = useT();
  return (
    <section class="docs-page">
      <h1 class="visually-hidden">{t('API reference')}</h1>
      <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
      <div id="swagger-ui" data-spec="/v1/openapi.json">
        <p>{t('The reference needs scripts; without them, read the OpenAPI document itself:')} <a href="/v1/openapi.json">openapi.json</a></p>
      </div>
      <script src="/docs/assets/swagger-ui-bundle.js" />
      <script src="/ui/assets/docs.js" />
    </section>
  );
}
