// Starts Swagger UI on the OpenAPI document named by the page (no inline script: the page's CSP forbids it).
// @ts-check
/* global SwaggerUIBundle */
const root = document.getElementById('swagger-ui');
if (root && 'SwaggerUIBundle' in window) {
  // @ts-ignore: the bundle defines this global
  SwaggerUIBundle({ url: root.dataset.spec, dom_id: '#swagger-ui', deepLinking: true, tryItOutEnabled: false });
}
