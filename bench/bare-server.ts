// The HTTP ceiling: a bare Fastify server that answers each benchmarked GET path with the exact bytes and
// headers Entia sent for it, held in memory. Same framework, same machine, no store, no serialisation.
//
//   node --import tsx bench/bare-server.ts ROUTES.json PORT
//   ROUTES.json: [{"path": "/v1/entities/items/Q3", "headers": {"etag": "\"5\"", ...}, "body": "<base64>"}]
// A route with `"anyId": true` also answers its bytes for every other id of its collection
// (/v1/entities/items/:id): the baseline of a run that asks for random items, so that the load generator
// varies the path alike on both sides.
import Fastify, { type RouteHandlerMethod } from 'fastify';
import { readFileSync } from 'node:fs';

export interface BareRoute {
  path: string;
  headers: Record<string, string>;
  /** Base64 of the response body. */
  body: string;
  /** Also serve these bytes for any id in the path's last segment. */
  anyId?: boolean;
}

async function main(routesFile: string, port: number): Promise<void> {
  const routes = JSON.parse(readFileSync(routesFile, 'utf8')) as BareRoute[];
  const app = Fastify({ logger: false });
  app.get('/ready', async () => 'ok');
  for (const route of routes) {
    const body = Buffer.from(route.body, 'base64');
    const answer: RouteHandlerMethod = (_req, reply) => {
      reply.headers(route.headers).send(body);
    };
    app.get(route.path, answer);
    // Static paths win over the parametric one in Fastify's router, so the exact routes above keep their bytes.
    if (route.anyId) app.get(route.path.replace(/[^/]+$/, ':id'), answer);
  }
  const shutdown = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  await app.listen({ host: '127.0.0.1', port });
}

main(process.argv[2], Number(process.argv[3])).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
