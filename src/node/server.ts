/**
 * Starting the gateway on Node: the upstream clients (undici pools), the core app, and the
 * listeners (plain HTTP, and HTTPS when a certificate is configured).
 */
import { clientViews } from '../admin/console-clients.js';
import { usageLogHistory } from './client-history.js';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener } from '@hono/node-server';
import type { GatewayConfig } from '../config/schema.js';
import type { RecordSink } from '../gateway/request-record.js';
import type { ShadowRecord } from '../traffic/shadow.js';
import { consoleView } from '../admin/console-page.js';
import { consoleReturnTo } from '../admin/console-overview.js';
import { operationView } from '../admin/operation-page.js';
import { judgementSource } from '../migration/judgement/source.js';
import { rolloutAdminView } from '../admin/judgement-views.js';
import { routesInForce } from '../migration/rollout/route-in-force.js';
import { withPositions } from '../migration/rollout/client-standing.js';
import { migrationMetrics } from '../migration/node/migration-metrics.js';
import { createLiveCounters, liveBucketMsOf } from '../migration/live-counters.js';
import type { LiveCounters } from '../migration/live-counters.js';
import { createAdminApp } from '../admin/routes.js';
import type { AdminAction, AdminView } from '../gateway/admin-port.js';
import { fanOut } from '../observability/fan-out.js';
import { adminAccess } from '../observability/node/admin-access.js';
import { createNodeObservability } from '../observability/node/wiring.js';
import type { NodeObservability } from '../observability/node/wiring.js';
import type { RefusalObserver } from '../observability/refusal-record.js';
import { Generations } from './generations.js';
import type { ReloadOutcome } from './generations.js';
import { configView, trafficView } from '../admin/config-and-traffic.js';
import { answerClientError, answerConnect } from './node-refusals.js';
import type { ClientError } from './node-refusals.js';
import { ArrivingRequest, createNodeListener } from './listener.js';
import { hostMatcher } from '../http/hosts.js';
import { lingerWhenUnread, oweAnswer, paidOnClose } from './answers-on-socket.js';
import { connectTerminator } from './connect-termination.js';
import type { ConnectTerminator } from './connect-termination.js';
import { nodeRuntime } from './runtime.js';
import { startFleet } from './fleet/fleet.js';
import { hasRolloutPlans, rolloutAdmin, rolloutMetrics, startRollout } from '../migration/rollout/node/start.js';
import type { RolloutRunner, RolloutSnapshot } from '../migration/rollout/runner.js';
import { Readiness } from './fleet/readiness.js';
import { closeUnsent, unusedConnectionsOf } from './unused-connections.js';

export interface RunningGateway {
  /** `http://host:port` of the plain listener. */
  readonly httpOrigin: string;
  /** `https://host:port` of the TLS listener, when configured. */
  readonly httpsOrigin: string | undefined;
  /** `http://host:port` of the admin listener (metrics), when configured. */
  readonly adminOrigin: string | undefined;
  /** Where the metrics can be read, and how; undefined when they are not served. */
  readonly metricsUrl: string | undefined;
  /** Things the operator should know (for example: metrics not served, no hash key). */
  readonly notes: readonly string[];
  /** `drain(limits.shutdownGraceMs)`, then resolves. */
  close(): Promise<void>;
  /**
   * Graceful stop: stops accepting connections at once, closes idle keep-alive connections, lets
   * the requests in flight finish (their answers say `Connection: close`) for up to `deadlineMs`,
   * then cuts what is left; then closes the upstream pools and writes out the usage log.
   * Called again while draining, it can only bring the deadline closer; it resolves with the
   * same outcome.
   */
  drain(deadlineMs: number): Promise<DrainOutcome>;
  /** Client connections open and requests in flight on the listeners (admin listener excluded). */
  stats(): ListenerStats;
  /** Puts a validated config in force (hot reload); requests in flight finish on the old one. */
  reload(config: GatewayConfig): Promise<ReloadOutcome>;
  /** The version of the config in force (1 at start, +1 per reload). */
  version(): number;
  /** The content hash of the config in force: equal on replicas that run the same config. */
  configHash(): string;
  /** Writes an operator event (not a request) to the usage log, when it is on. */
  event(name: string, fields: Record<string, unknown>): void;
  /** The live migration counters (the fleet's through Redis when `cache.redis` is set). */
  readonly live: LiveCounters;
  /** The rollouts in force (states, steps, last events), or undefined when no plan was ever configured (docs/rollout.md). */
  rollout(): RolloutSnapshot | undefined;
}

export interface DrainOutcome {
  /** Every request in flight was answered before the deadline. */
  readonly drained: boolean;
  /** Requests still unanswered at the deadline, whose connections were cut. */
  readonly cut: number;
  /** Time from the call to the listeners being closed. */
  readonly ms: number;
}

export interface ListenerStats {
  readonly connections: number;
  readonly inFlight: number;
}

export interface StartOptions {
  /** Also receives every request record (after the usage log and the metrics). */
  readonly onRecord?: RecordSink;
  /** Also receives every shadow comparison (after the usage log, where it is a `msg: "shadow"` line). */
  readonly onShadow?: (record: ShadowRecord) => void;
  /** false in a cluster worker: the primary serves the admin listener, metrics aggregated (src/node/cluster.ts). */
  readonly serveAdmin?: boolean;
  /** More admin views and actions (the sandbox's fault control), and a panel the console shows (HTML). */
  readonly extraAdmin?: { readonly views?: readonly AdminView[]; readonly actions?: readonly AdminAction[]; readonly consolePanel?: () => string };
}

export async function startGateway(config: GatewayConfig, options: StartOptions = {}): Promise<RunningGateway> {
  let generations: Generations | undefined;
  adminAccess(config.observability); // an admin listener beyond loopback without a token: refused before anything starts
  const fleet = await startFleet(config, (msg, level, fields) => fleetLog(observability, msg, level, fields));
  const readiness = new Readiness([fleet.notReadyReason]);
  // A rollout judges whole buckets: they are no longer than its evaluation period (15 minutes kept).
  const liveBucketMs = liveBucketMsOf(config.rollout.evaluationMs);
  const live = createLiveCounters({ bucketMs: liveBucketMs, keepBuckets: Math.ceil(900_000 / liveBucketMs), store: fleet.counterStore(liveBucketMs) });
  let rollout: RolloutRunner | undefined;
  const rolloutRoutes = rolloutAdmin(() => rollout);
  // The one judgement of each operation, which every admin view and the metrics show.
  const judge = judgementSource(live, () => generations?.active, () => rollout?.snapshot());
  const clientHistory = usageLogHistory(config.observability.log);
  const plansInForce = () => {
    // Where each rollout is: the runner's states, as the other views show them (one snapshot a view).
    const states = new Map((rollout?.snapshot().operations ?? []).map((o) => [o.operation as string, o.state?.at]));
    return withPositions(generations?.active.config.routes ?? {}, (operation) => states.get(operation));
  };
  const routeInForce = () => (generations ? routesInForce(generations.active.config, { route: (id) => rollout?.route(id) }) : undefined);
  const observability = createNodeObservability(
    config,
    options.onRecord,
    [
      { path: '/admin/config', render: () => (generations ? configView(generations.active) : {}) },
      { path: '/admin/traffic', render: async () => (generations ? trafficView(generations.active, routeInForce()!, await judge()) : {}) },
      { path: rolloutRoutes.view.path, render: async () => rolloutAdminView(rollout?.snapshot(), await judge()) },
      consoleView(judge, () => generations?.active, () => rollout?.snapshot(), () => generations?.active.traffic?.shadow?.snapshot() ?? [], options.extraAdmin?.consolePanel),
      ...clientViews(clientHistory, plansInForce),
      operationView(judge, () => generations?.active, () => rollout?.snapshot(), () => generations?.active.traffic?.shadow?.snapshot() ?? [], clientHistory, plansInForce),
      ...(options.extraAdmin?.views ?? []),
    ],
    // The pools of the config in force (a retired generation's pools drain and close on their own).
    () => (generations?.active.upstreams ?? []).flatMap((upstream) => (upstream.stats ? [{ name: upstream.name, stats: upstream.stats() }] : [])),
    fleet.status,
    // The usage log's `config` field: the content hash of the config in force.
    () => generations?.active.configHash ?? '',
    // A console form's action comes back to the page that sent it.
    [{ ...rolloutRoutes.action, returnTo: consoleReturnTo }, ...(options.extraAdmin?.actions ?? [])],
  );
  const migration = observability.metricsRegistry
    ? migrationMetrics(observability.metricsRegistry, { active: () => generations?.active, breakers: () => generations?.active.traffic?.breakers ?? {}, route: routeInForce, judge })
    : undefined;
  const countRolloutEvent = observability.metricsRegistry ? rolloutMetrics(observability.metricsRegistry, () => rollout) : undefined;
  const startRollouts = async (plans: GatewayConfig): Promise<void> => {
    rollout = await startRollout(
      plans,
      live,
      (event) => {
        observability.usageLog?.event('rollout', event);
        countRolloutEvent?.(event);
      },
      () => void generations?.active.searchCache?.afterRouteMove(),
    );
  };
  generations = await Generations.start(config, {
    runtime: nodeRuntime,
    onRecord: fanOut([observability.sink, live.recordRequest, migration?.record]),
    identifier: observability.identifier,
    onShadow: shadowSink(observability, [live.recordShadow, migration?.shadow, options.onShadow]),
    onBreaker: (upstream, from, to) => {
      live.recordBreaker(upstream, to);
      migration?.breaker(upstream, to);
      observability.usageLog?.event('breaker', { upstream, from, to });
    },
    admin: observability.mainAdmin,
    rollout: { route: (id) => rollout?.route(id) },
    tracer: observability.tracer,
  }, fleet);
  if (hasRolloutPlans(config)) await startRollouts(config);
  const observer: RefusalObserver | undefined = observability.sink ? { sink: observability.sink, identifier: observability.identifier } : undefined;
  // One matcher of the legacy hosts for this config: the listener's absolute-form targets and CONNECT termination.
  const isLegacyHost = hostMatcher(config.legacyHosts);
  const listener = createNodeListener(generations.target, {
    isLegacyHost,
    maxUrlLength: config.limits.maxUrlLength,
    observer,
  });

  const servers: Server[] = [];
  const tracker = new ListenerTracker(observer);
  // A connection that never sent a byte, closed by a drain (unused-connections.ts): the tracker's, and the admin listener's.
  const unusedConnections: Array<{ close(): void }> = [{ close: () => tracker.closeUnused() }];
  const nodeOptions = serverOptions(config);
  const plain = tracker.watch(createServer(nodeOptions, tracker.wrap(readiness.wrap(listener))), config, false);
  servers.push(plain);
  const httpOrigin = await listen(plain, config.listen.host, config.listen.port, 'http');

  let httpsOrigin: string | undefined;
  if (config.listen.https) {
    const [cert, key] = await Promise.all([readFile(config.listen.https.certFile), readFile(config.listen.https.keyFile)]);
    const secure = tracker.watch(createHttpsServer({ ...nodeOptions, cert, key }, tracker.wrap(readiness.wrap(listener))), config, true);
    servers.push(secure);
    tracker.terminateConnect = connectTerminator(isLegacyHost, config.listen.https.port, secure);
    httpsOrigin = await listen(secure, config.listen.host, config.listen.https.port, 'https');
  }

  let adminOrigin: string | undefined;
  if (observability.adminListener && options.serveAdmin !== false) {
    const { routes, host, port } = observability.adminListener;
    const admin = createServer(nodeOptions, getRequestListener(createAdminApp(routes).fetch));
    servers.push(admin);
    unusedConnections.push(unusedConnectionsOf(admin));
    adminOrigin = await listen(admin, host, port, 'http');
  }
  const metricsPath = config.observability.metrics.path;
  const metricsUrl = adminOrigin ? `${adminOrigin}${metricsPath}` : observability.mainAdmin ? `${httpOrigin}${metricsPath} (bearer token)` : undefined;

  let draining: Promise<DrainOutcome> | undefined;
  let cutAt = Infinity;
  let hurried = false;
  let reschedule: (() => void) | undefined;
  function drain(deadlineMs: number): Promise<DrainOutcome> {
    // The first call keeps serving for limits.readyDelayMs (its grace starts after); a later one hurries.
    const delay = draining ? 0 : config.limits.readyDelayMs;
    cutAt = Math.min(cutAt, Date.now() + delay + Math.max(0, deadlineMs));
    reschedule?.();
    readiness.markStopping();
    if (draining) hurried = true;
    draining ??= (async () => {
      // /readyz says 503 from now on; load balancers take a few probes to notice: keep serving meanwhile.
      await readyDelay(delay, () => hurried);
      const started = Date.now();
      tracker.beginDrain();
      const closed = Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
      // Connections whose last answer went out before the drain began turn idle later: close them as they do.
      // A connection that never sent a byte is not idle to Node: closed by unusedConnections.
      const sweep = setInterval(() => {
        for (const server of servers) server.closeIdleConnections();
        for (const unused of unusedConnections) unused.close();
      }, 20);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => {
        reschedule = () => {
          clearTimeout(timer);
          timer = setTimeout(() => resolve('late'), Math.max(0, cutAt - Date.now()));
        };
        reschedule();
      });
      const outcome = await Promise.race([closed.then(() => 'drained' as const), late]);
      clearTimeout(timer);
      clearInterval(sweep);
      let cut = 0;
      if (outcome === 'late') {
        cut = tracker.stats().inFlight;
        for (const server of servers) server.closeAllConnections();
        await closed;
      }
      const ms = Date.now() - started;
      await rollout?.close();
      await generations?.close();
      await live.close();
      await fleet.close();
      await observability.close();
      return { drained: outcome === 'drained', cut, ms };
    })();
    return draining;
  }

  return {
    httpOrigin,
    httpsOrigin,
    adminOrigin,
    metricsUrl,
    notes: [...observability.notes, ...fleet.notes],
    close: async () => {
      await drain(config.limits.shutdownGraceMs);
    },
    drain,
    stats: () => tracker.stats(),
    reload: async (next) => {
      if (!generations) throw new Error('gateway not started');
      const outcome = await generations.reload(next).catch((error: unknown) => {
        migration?.reloadFailed();
        throw error;
      });
      if (rollout) await rollout.reload(next);
      else if (hasRolloutPlans(next)) await startRollouts(next);
      observability.usageLog?.event('config', { version: outcome.version, configHash: outcome.configHash, needsRestart: outcome.needsRestart });
      return outcome;
    },
    version: () => generations?.active.version ?? 0,
    configHash: () => generations?.active.configHash ?? '',
    event: (name, fields) => {
      // A reload refused before it reached reload() (an invalid file: src/node/config-watch.ts).
      if (name === 'config-rejected') migration?.reloadFailed();
      observability.usageLog?.event(name, fields);
    },
    live,
    rollout: () => rollout?.snapshot(),
  };
}

/** Node's server options from `limits`: header size (431), slowloris timeouts (408), client keep-alive. */
function serverOptions(config: GatewayConfig): ServerOptions {
  const { maxHeaderBytes, headersTimeoutMs, requestTimeoutMs, clientKeepAliveTimeoutMs } = config.limits;
  return {
    // Requests carry the arrival the listener made for the core (src/node/listener.ts).
    IncomingMessage: ArrivingRequest,
    maxHeaderSize: maxHeaderBytes,
    headersTimeout: headersTimeoutMs,
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: clientKeepAliveTimeoutMs,
    // Node checks both timeouts only this often (30 s by default, which would let a slowloris
    // client hold a connection for 40 s with a 10 s headersTimeout).
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeoutMs / 4))),
  };
}

/**
 * Counts connections and requests in flight on the gateway's listeners, marks answers written
 * while draining `Connection: close`, and hands what Node refuses before any request exists
 * (oversized headers, slowloris, broken HTTP) and CONNECT to src/node/node-refusals.ts.
 */
class ListenerTracker {
  private draining = false;
  /** The TCP connections, for the connection count. */
  private readonly sockets = new Set<Socket>();
  /** The sockets Node's HTTP server reads (the TLS socket on the TLS listener): their current answer. */
  private readonly httpSockets = new Set<Socket & { _httpMessage?: ServerResponse | null }>();
  private inFlight = 0;
  /** The one `close` listener of every answer (`this` is the response), not closures per request. */
  private readonly answered: (this: ServerResponse) => void;
  /** CONNECT to a legacy host, taken by the TLS listener (set once that listener exists). */
  terminateConnect: ConnectTerminator | undefined;

  constructor(private readonly observer: RefusalObserver | undefined) {
    const tracker = this;
    this.answered = function (this: ServerResponse) {
      tracker.inFlight -= 1;
      paidOnClose(this);
    };
  }

  wrap(listener: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void {
    return (req, res) => {
      this.inFlight += 1;
      res.on('close', this.answered);
      oweAnswer(req, res);
      if (this.draining) res.shouldKeepAlive = false;
      listener(req, res);
    };
  }

  watch<S extends Server>(server: S, config: GatewayConfig, tls: boolean): S {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      if (!tls) this.readsHttp(socket);
    });
    // On the TLS listener, Node's HTTP server reads and closes the TLS socket, not the TCP one.
    if (tls) server.on('secureConnection', (socket: Socket) => this.readsHttp(socket));
    server.on('clientError', (error: ClientError, socket: Duplex) => answerClientError(error, socket, config, this.observer));
    server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => answerConnect(req, socket, head, this.observer, this.terminateConnect));
    return server;
  }

  /**
   * From now on, every answer not yet started closes its connection once written: the one each
   * connection is writing now, and every later one. (A pipelined answer Node already queued keeps
   * the connection open; the drain's sweep closes it once idle.)
   */
  beginDrain(): void {
    this.draining = true;
    for (const socket of this.httpSockets) {
      const res = socket._httpMessage;
      if (res && !res.headersSent) res.shouldKeepAlive = false;
    }
  }

  /** Destroys every connection that has not sent a byte yet (on the TLS listener, counted in plain bytes once its handshake is done). */
  closeUnused(): void {
    closeUnsent(this.httpSockets);
  }

  stats(): ListenerStats {
    return { connections: this.sockets.size, inFlight: this.inFlight };
  }

  private readsHttp(socket: Socket): void {
    this.httpSockets.add(socket);
    socket.once('close', () => this.httpSockets.delete(socket));
    lingerWhenUnread(socket);
  }
}

function listen(server: Server, host: string, port: number, scheme: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve(`${scheme}://${shown}:${address.port}`);
    });
  });
}

/** Waits `ms`, or less once `cutShort()` (a second signal brought the deadline closer). */
async function readyDelay(ms: number, cutShort: () => boolean): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until && !cutShort()) await new Promise((resolve) => setTimeout(resolve, Math.min(50, until - Date.now())));
}

function fleetLog(observability: NodeObservability, msg: string, level: string, fields: Readonly<Record<string, string>>): void {
  if (observability.usageLog) observability.usageLog.event(msg, fields);
  else console.error(JSON.stringify({ level, msg, ...fields }));
}

/** The usage log's `shadow` line, then each of `sinks` (live counters, metrics, the caller's). */
function shadowSink(observability: NodeObservability, sinks: ReadonlyArray<((record: ShadowRecord) => void) | undefined>): (record: ShadowRecord) => void {
  const log = observability.usageLog;
  return (record) => {
    log?.event('shadow', record);
    for (const sink of sinks) sink?.(record);
  };
}
