/**
 * Hot reload from the config file: on SIGHUP, and when the file changes (the folder is watched,
 * so editors that replace the file are seen too, and so is a Kubernetes ConfigMap update: the
 * kubelet writes a new `..<timestamp>` folder and swaps the `..data` symlink by renaming
 * `..data_tmp` over it, so the events name `..data_tmp`/`..data`, never the file; see isConfigEvent). The new file is validated first; a valid one
 * replaces the config in force atomically, an invalid one is refused with its reasons (key and
 * rule), logged, and the config in force stays.
 */
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { GatewayConfig } from '../config/schema.js';
import { loadConfigFile } from './config-file.js';
import { configHash } from './config-hash.js';
import type { RunningGateway } from './server.js';

export type ReloadResult =
  | { readonly ok: true; readonly version: number; readonly configHash: string; readonly unchanged: boolean; readonly needsRestart: readonly string[] }
  | { readonly ok: false; readonly errors: readonly string[] };

export interface ConfigWatch {
  /** Reads, validates and applies the file now. */
  reloadNow(reason: string): Promise<ReloadResult>;
  close(): void;
}

export interface WatchOptions {
  /** Also reload on SIGHUP. */
  readonly onSignal?: boolean;
  /** Told of every outcome (for the operator's console). */
  readonly report?: (result: ReloadResult, reason: string) => void;
  readonly debounceMs?: number;
  /**
   * Reads the file into a config: what the start read it with (src/node/start-config.ts
   * `loadConfig`, the environment and --workers applied), so that a reload of an unchanged file
   * changes nothing. Default: the file alone.
   */
  readonly load?: (path: string) => Promise<{ ok: true; config: GatewayConfig } | { ok: false; errors: readonly string[] }>;
}

export function watchConfigFile(path: string, gateway: Pick<RunningGateway, 'reload' | 'version' | 'configHash' | 'event'>, options: WatchOptions = {}): ConfigWatch {
  const load = options.load ?? loadConfigFile;
  let chain: Promise<unknown> = Promise.resolve();

  const apply = async (reason: string): Promise<ReloadResult> => {
    const loaded = await load(path);
    let result: ReloadResult;
    if (!loaded.ok) {
      gateway.event('config-rejected', { reason, file: path, errors: loaded.errors });
      result = { ok: false, errors: loaded.errors };
    } else if (configHash(loaded.config) === gateway.configHash()) {
      // The same content as the config in force: nothing to apply, and it says so.
      result = { ok: true, version: gateway.version(), configHash: gateway.configHash(), unchanged: true, needsRestart: [] };
    } else {
      const outcome = await gateway.reload(loaded.config);
      result = { ok: true, version: outcome.version, configHash: outcome.configHash, unchanged: false, needsRestart: outcome.needsRestart };
    }
    options.report?.(result, reason);
    return result;
  };
  // Reloads run one at a time, in the order asked.
  const reloadNow = (reason: string): Promise<ReloadResult> => {
    const next = chain.then(() => apply(reason));
    chain = next.catch(() => undefined);
    return next;
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(path), (_event, file) => {
      if (!isConfigEvent(file, basename(path))) return;
      clearTimeout(timer);
      timer = setTimeout(() => void reloadNow('file changed'), options.debounceMs ?? 150);
    });
  } catch {
    watcher = undefined; // a folder that cannot be watched: SIGHUP still works
  }
  const onHangup = (): void => void reloadNow('SIGHUP');
  if (options.onSignal) process.on('SIGHUP', onHangup);

  return {
    reloadNow,
    close() {
      clearTimeout(timer);
      watcher?.close();
      if (options.onSignal) process.off('SIGHUP', onHangup);
    },
  };
}

/**
 * An event that may change what `path` reads: the file itself (or an unnamed event), or the
 * kubelet's atomic writer (`..data`, `..data_tmp`, `..<timestamp>`: names no user file starts with).
 */
export function isConfigEvent(file: string | Buffer | null, name: string): boolean {
  if (file === null) return true;
  const changed = file.toString();
  return changed === name || changed.startsWith('..');
}
