/**
 * Config of the export of traces (`observability.tracing`, docs/tracing.md): OpenTelemetry spans
 * over OTLP/HTTP, built from each request's record after its answer.
 *
 * Off by default: with it off nothing is added to a request's path. `headers` are secrets (an
 * API key of the tracing backend): never logged, shown `[redacted]` by /admin/config.
 */
import { z } from 'zod';

/**
 * What keeps a request's trace whatever the head ratio (src/observability/tracing/verdict.ts):
 * - `failed`: answered 5xx;
 * - `fallback`: api2 failed and legacy answered;
 * - `shadow-differed`: its shadow comparison differed (decided when the comparison ends);
 * - `refused`: the gateway refused it itself (a guard, the target, the body limit, validation);
 * - `moving`: answered within `moveWindowMs` of its route's rollout step coming into force.
 */
export const KEPT_KINDS = ['failed', 'fallback', 'shadow-differed', 'refused', 'moving'] as const;
export type KeptKind = (typeof KEPT_KINDS)[number];

/**
 * - `sampled`: the head ratio (or the client's sampled flag, with `honorClientSampled`);
 * - a kept kind known at the answer: `failed`, `fallback`, `refused`, `moving`;
 * - `if-shadow-differs`: not kept at the answer, exported if its shadow comparison differs;
 * - `dropped`: kept, but the export queue was full (counted in /metrics).
 */
export type TraceVerdict = 'sampled' | Exclude<KeptKind, 'shadow-differed'> | 'if-shadow-differs' | 'dropped';


const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const TracingConfigSchema = z
  .object({
    enabled: z.boolean().default(false),
    /** The OTLP/HTTP traces URL, such as http://otel-collector:4318/v1/traces. */
    endpoint: z
      .string()
      .url()
      .refine((url) => /^https?:\/\//i.test(url), 'must be an http:// or https:// URL (OTLP/HTTP)')
      .optional(),
    /** Sent with every export (a backend's API key): secrets, never logged. */
    headers: z
      .record(z.string().regex(HEADER_NAME, 'must be an HTTP header name'), z.string().regex(/^[\t\x20-\x7e]*$/, 'must be printable ASCII'))
      .default({}),
    /** OTLP's encodings over HTTP: protobuf (the default of OTLP/HTTP) or JSON. */
    protocol: z.enum(['http/protobuf', 'http/json']).default('http/protobuf'),
    /** Share of ordinary requests whose trace is exported (decided from the trace id, alike on every replica). */
    headRatio: z.number().min(0).max(1).default(0.01),
    /** Requests whose trace is exported whatever the head ratio. */
    keep: z.array(z.enum(KEPT_KINDS)).default([...KEPT_KINDS]),
    /** A client's traceparent with the sampled flag set keeps the trace too (its tracer records its side). */
    honorClientSampled: z.boolean().default(false),
    /** How long after a rollout step came into force a request counts as answered during the move (`moving`). */
    moveWindowMs: z.number().int().min(0).default(60_000),
    /** Traces held for export (waiting for a batch, or for their shadow comparison); past it a trace is dropped and counted. */
    queueSize: z.number().int().min(1).max(1_000_000).default(2048),
    /** Spans sent in one export request at most. */
    batchSize: z.number().int().min(1).max(100_000).default(512),
    /** The longest a kept trace waits before it is sent. */
    flushMs: z.number().int().min(10).max(60_000).default(1000),
    /** Deadline of one export request; a slow or absent receiver costs no more (and never the client's answer). */
    timeoutMs: z.number().int().min(100).max(60_000).default(5000),
    /** The resource's `service.name`. */
    serviceName: z.string().min(1).max(128).default('recipe-gateway'),
  })
  .strict()
  .superRefine((tracing, ctx) => {
    if (tracing.enabled && tracing.endpoint === undefined) ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'is required when tracing is enabled (the OTLP/HTTP traces URL)' });
  })
  .prefault({});

export type TracingConfig = z.output<typeof TracingConfigSchema>;
