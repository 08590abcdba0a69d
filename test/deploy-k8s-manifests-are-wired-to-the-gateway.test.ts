/**
 * deploy/k8s: every manifest parses, and the wiring agrees with the gateway itself: the container
 * port is the default listen port (and PORT), the probes hit /healthz and /readyz on it, the config
 * is mounted as a folder (a subPath mount never sees ConfigMap updates) where GATEWAY_CONFIG and the
 * Dockerfile look for it, the ConfigMap's file is a valid config whose Redis is the stated Service,
 * selectors match the pods, and the grace period covers preStop + ready delay + drain. The admin
 * listener, bound beyond loopback, has its token from a Secret (the gateway would not start
 * without one), and every pod passes the Pod Security "restricted" profile.
 */
import { readFile, readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/schema.js';
import { applyEnvironment } from '../src/node/start-config.js';
import { adminAccessOf, isLoopback } from '../src/observability/node/admin-access.js';
import { READY_PATH } from '../src/node/fleet/readiness.js';

const DIR = new URL('../deploy/k8s/', import.meta.url).pathname;

interface Manifest {
  readonly file: string;
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly labels?: Record<string, string> };
  readonly spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly data?: Record<string, string>;
  readonly resources?: string[];
}

async function manifests(): Promise<Manifest[]> {
  const files = (await readdir(DIR)).filter((f) => f.endsWith('.yaml')).sort();
  const all: Manifest[] = [];
  for (const file of files) {
    for (const doc of parseAllDocuments(await readFile(join(DIR, file), 'utf8'))) {
      expect(doc.errors, file).toEqual([]);
      all.push({ file, ...(doc.toJS() as Omit<Manifest, 'file'>) });
    }
  }
  return all;
}

const one = (all: Manifest[], kind: string, name: string): Manifest => {
  const found = all.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
};

describe('deploy/k8s', () => {
  it('parses every manifest, each with apiVersion, kind and name; kustomization lists the files that exist', async () => {
    const all = await manifests();
    const kustomization = all.find((m) => m.kind === 'Kustomization');
    const objects = all.filter((m) => m !== kustomization);
    expect(objects.length).toBeGreaterThanOrEqual(7);
    for (const m of objects) expect([m.file, typeof m.apiVersion, typeof m.kind, typeof m.metadata?.name]).toEqual([m.file, 'string', 'string', 'string']);
    const files = (await readdir(DIR)).filter((f) => f.endsWith('.yaml'));
    expect(kustomization?.resources?.length).toBeGreaterThan(0);
    for (const listed of kustomization?.resources ?? []) expect(files).toContain(listed);
  });

  it('wires ports, probes, the config mount and the Redis service to what the gateway uses', async () => {
    const all = await manifests();
    const deployment = one(all, 'Deployment', 'recipe-gateway');
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    const env = Object.fromEntries(container.env.map((e: { name: string; value?: string }) => [e.name, e.value]));
    const http = container.ports.find((p: { name: string }) => p.name === 'http');

    const configMap = one(all, 'ConfigMap', 'recipe-gateway-config');
    const dockerfile = await readFile(new URL('../Dockerfile', import.meta.url), 'utf8');
    const imageConfigPath = /GATEWAY_CONFIG=(\S+)/.exec(dockerfile)?.[1];
    expect(env['GATEWAY_CONFIG']).toBe(imageConfigPath);
    const mount = container.volumeMounts.find((m: { mountPath: string }) => m.mountPath === dirname(env['GATEWAY_CONFIG']));
    expect(mount).toBeDefined();
    expect(mount.subPath).toBeUndefined();
    const volume = pod.volumes.find((v: { name: string }) => v.name === mount.name);
    expect(volume.configMap.name).toBe(configMap.metadata.name);
    const text = configMap.data?.[basename(env['GATEWAY_CONFIG'])];
    expect(text).toBeDefined();

    const parsed = parseConfig(JSON.parse(text as string));
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    const config = parsed.config;
    const defaults = parseConfig({ upstreams: { legacy: { baseUrl: 'http://x' } } });
    if (!defaults.ok) throw new Error('defaults');
    expect(http.containerPort).toBe(defaults.config.listen.port);
    expect(http.containerPort).toBe(config.listen.port);
    expect(env['PORT']).toBe(String(http.containerPort));
    expect(container.env.find((e: { name: string }) => e.name === 'GATEWAY_HASH_KEY').valueFrom.secretKeyRef).toBeDefined();

    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe.httpGet).toEqual({ path: READY_PATH, port: 'http' });
    const preStopSeconds = Number(container.lifecycle.preStop.exec.command[1]);
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(preStopSeconds * 1000 + config.limits.readyDelayMs + config.limits.shutdownGraceMs);
    expect(config.limits.readyDelayMs).toBeGreaterThanOrEqual(container.readinessProbe.periodSeconds * container.readinessProbe.failureThreshold * 1000);
    expect(container.resources.requests.cpu).toBeDefined();
    expect(container.resources.limits.memory).toBeDefined();

    const admin = container.ports.find((p: { name: string }) => p.name === 'admin');
    expect(admin.containerPort).toBe(config.observability.admin.listen?.port);

    // Redis: the config names the stated Service and its port.
    const redisUrl = new URL(config.cache.redis?.url ?? '');
    const redisService = one(all, 'Service', redisUrl.hostname);
    expect(redisService.spec.ports.map((p: { port: number }) => p.port)).toContain(Number(redisUrl.port));
    const redisDeployment = all.find((m) => m.kind === 'Deployment' && m.metadata.name !== deployment.metadata.name);
    expect(redisDeployment?.spec.template.metadata.labels).toMatchObject(redisService.spec.selector);
    // Evicts only keys with a TTL: the rollout's keys have none (test/fleet-redis-keys-without-a-ttl-are-the-rollout-state.test.ts).
    const redisArgs: string[] = redisDeployment?.spec.template.spec.containers[0].args ?? [];
    expect(redisArgs[redisArgs.indexOf('--maxmemory-policy') + 1]).toBe('volatile-lru');
  });

  it('selects the gateway pods from the Service, the PodDisruptionBudget and the autoscaler', async () => {
    const all = await manifests();
    const deployment = one(all, 'Deployment', 'recipe-gateway');
    const labels = deployment.spec.template.metadata.labels;
    expect(labels).toMatchObject(deployment.spec.selector.matchLabels);
    const service = one(all, 'Service', 'recipe-gateway');
    expect(labels).toMatchObject(service.spec.selector);
    const portNames = deployment.spec.template.spec.containers[0].ports.map((p: { name: string }) => p.name);
    for (const port of service.spec.ports) expect(portNames).toContain(port.targetPort);
    expect(labels).toMatchObject(one(all, 'PodDisruptionBudget', 'recipe-gateway').spec.selector.matchLabels);
    const hpa = one(all, 'HorizontalPodAutoscaler', 'recipe-gateway');
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: deployment.metadata.name });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
  });

  it('guards the admin listener with a token from a Secret: without it the config would not start', async () => {
    const all = await manifests();
    const container = one(all, 'Deployment', 'recipe-gateway').spec.template.spec.containers[0];
    const configMap = one(all, 'ConfigMap', 'recipe-gateway-config');
    const parsed = parseConfig(JSON.parse(Object.values(configMap.data ?? {})[0] as string));
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    expect(isLoopback(parsed.config.observability.admin.listen?.host ?? '127.0.0.1')).toBe(false);
    expect(adminAccessOf(parsed.config.observability).ok, 'beyond loopback without a token').toBe(false);
    const token = container.env.find((e: { name: string }) => e.name === 'GATEWAY_ADMIN_TOKEN');
    expect(token?.valueFrom?.secretKeyRef).toMatchObject({ name: 'recipe-gateway-secrets', key: 'admin-token' });
    const withToken = applyEnvironment(parsed.config, { GATEWAY_ADMIN_TOKEN: 'a-token-from-the-secret-0123456789' });
    if (!withToken.ok) throw new Error(withToken.errors.join('\n'));
    expect(adminAccessOf(withToken.config.observability).ok).toBe(true);
  });

  it('runs every pod under the Pod Security "restricted" profile', async () => {
    const all = await manifests();
    const deployments = all.filter((m) => m.kind === 'Deployment');
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual(['recipe-gateway', 'recipe-gateway-redis']);
    for (const deployment of deployments) {
      const pod = deployment.spec.template.spec;
      const name = deployment.metadata.name;
      expect(pod.hostNetwork ?? false, name).toBe(false);
      expect(pod.hostPID ?? false, name).toBe(false);
      expect(pod.hostIPC ?? false, name).toBe(false);
      for (const volume of pod.volumes ?? []) expect(volume.hostPath, `${name} volume ${volume.name}`).toBeUndefined();
      for (const container of [...(pod.initContainers ?? []), ...pod.containers]) {
        const where = `${name}/${container.name}`;
        const context = { ...pod.securityContext, ...container.securityContext };
        expect(context.runAsNonRoot, where).toBe(true);
        expect(context.runAsUser ?? 1, where).not.toBe(0);
        expect(context.allowPrivilegeEscalation, where).toBe(false);
        expect(context.privileged ?? false, where).toBe(false);
        expect(context.seccompProfile?.type, where).toMatch(/^(RuntimeDefault|Localhost)$/);
        expect(container.securityContext?.capabilities?.drop, where).toContain('ALL');
        expect((container.securityContext?.capabilities?.add ?? []).filter((c: string) => c !== 'NET_BIND_SERVICE'), where).toEqual([]);
        for (const port of container.ports ?? []) expect(port.hostPort, where).toBeUndefined();
      }
    }
  });
});
