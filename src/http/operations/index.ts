// Endpoints for operators, outside the API's route table: liveness and readiness for load balancers and
// orchestrators, and Prometheus metrics. They carry no entity data and spend no rate-limit budget.
import type { FastifyInstance } from 'fastify';
import type { StoreLifecycle } from '../../store/store.js';
import type { Services } from '../services.js';

/** Registers the endpoints; returns their paths. */
export function registerOperations(app: FastifyInstance, store: StoreLifecycle, services: Services): void {
  const { metrics } = services;
  // Liveness: the process answers. Nothing else is checked, so a database outage does not get it restarted.
  app.get('/health', async (_req, reply) => reply.header('cache-control', 'no-store').type('application/json')
    .send(Buffer.from('{"status":"ok"}')));

  // Readiness: the database answers one query (migrations run before the server listens).
  app.get('/ready', async (req, reply) => {
    reply.header('cache-control', 'no-store').type('application/json');
    try {
      const probe = await store.probe();
      return reply.send(Buffer.from(JSON.stringify({ status: 'ready', store: probe.backend })));
    } catch (e) {
      req.log.warn({ err: e }, 'readiness probe failed');
      return reply.code(503).send(Buffer.from('{"status":"unavailable","reason":"the database does not answer"}'));
    }
  });

  if (!services.config.metrics) return;
  metrics.watch(store, services.documents);
  app.get('/metrics', async (_req, reply) => reply.header('cache-control', 'no-store')
    .type(metrics.registry.contentType).send(await metrics.registry.metrics()));

  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    const method = req.method;
    metrics.requests.inc({ method, route, status: String(reply.statusCode) });
    metrics.latency.observe({ method, route }, reply.elapsedTime / 1000);
    done();
  });
}
