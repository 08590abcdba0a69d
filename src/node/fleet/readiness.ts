/**
 * Node-only: `/readyz`, answered on the main listener before the core. 200 `{"status":"ready"}`
 * while this replica should get traffic; 503 `{"status":"not-ready","reasons":[…]}` from the moment
 * it is asked to stop (SIGTERM) and while a required dependency is out. `/healthz` (the core)
 * stays liveness: the process answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const READY_PATH = '/readyz';

export class Readiness {
  private stopping = false;

  /** `checks`: each says why the replica is not ready, or null. */
  constructor(private readonly checks: ReadonlyArray<() => string | null>) {}

  markStopping(): void {
    this.stopping = true;
  }

  reasons(): string[] {
    const reasons = this.stopping ? ['shutting down'] : [];
    for (const check of this.checks) {
      const reason = check();
      if (reason !== null) reasons.push(reason);
    }
    return reasons;
  }

  /** Answers /readyz itself, hands every other request to `next`. */
  wrap(next: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      const url = req.url ?? '';
      if (url !== READY_PATH && !url.startsWith(`${READY_PATH}?`)) return next(req, res);
      const reasons = this.reasons();
      const body = JSON.stringify(reasons.length === 0 ? { status: 'ready' } : { status: 'not-ready', reasons });
      res.writeHead(reasons.length === 0 ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
  }
}
