/**
 * Node-only: the origin written on every usage-log line: `instance`, a stable id of this process
 * or pod (`observability.instance`, else the HOSTNAME or POD_NAME environment variable, which
 * Kubernetes and Docker set to the pod or container name, else `hostname:pid`), and `config`,
 * the version of the config in force (read at each line: a hot reload changes it).
 */
import { hostname } from 'node:os';
import type { LogOrigin } from '../log-fields.js';

export function instanceId(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return configured ?? nonEmpty(env['HOSTNAME']) ?? nonEmpty(env['POD_NAME']) ?? `${hostname()}:${process.pid}`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** The origin for each line; one object per config version, not one per line. */
export function originSource(instance: string, configVersion: () => string): () => LogOrigin {
  let origin: LogOrigin = { instance, config: configVersion() };
  return () => {
    const config = configVersion();
    if (config !== origin.config) origin = { instance, config };
    return origin;
  };
}
