// Waits for a test server's SPARQL engine to be filled (it answers 503 with Retry-After until then).
import type { TestServer } from './server.js';

export async function waitForSparql(s: Pick<TestServer, 'url'>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${s.url}/sparql?query=${encodeURIComponent('ASK {}')}`);
    await res.arrayBuffer();
    if (res.status === 200) return;
    if (res.status !== 503 || Date.now() > deadline) throw new Error(`SPARQL did not become ready: ${res.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
