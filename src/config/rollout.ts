/**
 * Config of progressive rollouts (docs/rollout.md): a plan per operation
 * (`routes.<id>.rollout`) and how often the gates are evaluated (`rollout`).
 *
 * A plan's steps go from the least exposure to the most: an optional `shadow` first (legacy
 * answers, api2 is compared in the background), then percentages of clients sent to api2
 * (sticky per client, as a canary), 100 meaning every client. Between two steps the gates are
 * judged on the evidence the live counters hold for the step (src/migration/live-counters.ts);
 * src/migration/rollout/controller.ts decides.
 */
import { z } from 'zod';

/** `shadow`, or the share of clients (percent, more than 0, at most 100) answered by api2. */
export const RolloutStepSchema = z.union([z.literal('shadow'), z.number().gt(0).max(100)]);
export type RolloutStep = z.output<typeof RolloutStepSchema>;

/** What a failed gate does: one step back (a first shadow step starts again), back to legacy, or pause where it is. */
export const ROLLOUT_FAILURE_ACTIONS = ['back-one-step', 'legacy', 'pause'] as const;
export type RolloutFailureAction = (typeof ROLLOUT_FAILURE_ACTIONS)[number];

const share = z.number().min(0).max(1);
const DAY_MS = 86_400_000;

export const RolloutPlanSchema = z
  .object({
    steps: z.array(RolloutStepSchema).min(1, 'needs at least one step (for example ["shadow", 1, 10, 50, 100])'),
    /** The least time a step lasts before it can move on. */
    minStepMs: z.number().int().min(0).max(30 * DAY_MS).default(600_000),
    /** The least number of answers api2 gave (fallbacks included) in a percentage step before it can move on. */
    minSamples: z.number().int().min(1).max(10_000_000).default(200),
    /** The least samples in one evaluation period that can fail a gate there (rollback is fast, promotion slow). */
    failSamples: z.number().int().min(1).max(1_000_000).default(20),
    gates: z
      .object({
        /** Shadow agreement at least `min` over at least `minComparisons` comparisons (required to leave a shadow step). */
        shadowAgreement: z
          .object({
            min: share.default(0.99),
            minComparisons: z.number().int().min(1).max(10_000_000).default(100),
          })
          .strict()
          .optional(),
        /** api2's 5xx rate (a fallback counts as one) at most legacy's plus `maxExcess`. */
        errorRate: z.object({ maxExcess: share.default(0.01) }).strict().prefault({}),
        /** api2's p95 at most legacy's × `maxRatio` + `graceMs` (the latency buckets are coarse). */
        latencyP95: z
          .object({
            maxRatio: z.number().min(1).max(100).default(1.5),
            graceMs: z.number().int().min(0).max(60_000).default(20),
          })
          .strict()
          .optional(),
        /** The api2 circuit breaker did not open during the step. */
        breaker: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    onFailure: z.enum(ROLLOUT_FAILURE_ACTIONS).default('back-one-step'),
  })
  .strict()
  .superRefine((plan, ctx) => {
    plan.steps.forEach((step, index) => {
      if (step === 'shadow' && index > 0) {
        ctx.addIssue({ code: 'custom', path: ['steps', index], message: 'a shadow step can only be the first (it exposes no client; the steps after it expose more)' });
      }
      const before = plan.steps[index - 1];
      if (typeof step === 'number' && typeof before === 'number' && step <= before) {
        ctx.addIssue({ code: 'custom', path: ['steps', index], message: `must be more than the step before it (${before} %): each step exposes more clients` });
      }
    });
    if (plan.steps.includes('shadow') && !plan.gates.shadowAgreement) {
      ctx.addIssue({ code: 'custom', path: ['gates', 'shadowAgreement'], message: 'is required by a shadow step: the agreement that moves it on ({ "min": 0.99, "minComparisons": 100 })' });
    }
  });

export type RolloutPlan = z.output<typeof RolloutPlanSchema>;
export type RolloutPlanInput = z.input<typeof RolloutPlanSchema>;

/** The `rollout` section: how the controller runs (the plans themselves are on the routes). */
export const RolloutConfigSchema = z
  .object({
    /** How often the gates are judged and a step moved (the longest a failing api2 stays exposed, plus one counter bucket). */
    evaluationMs: z.number().int().min(50).max(3_600_000).default(10_000),
    /**
     * Without `cache.redis`: a file the per-process rollout state is kept in, so that it survives a
     * restart. Absent: the state starts again from each plan's first step at every start.
     */
    stateFile: z.string().min(1).optional(),
    /** Rollout events kept for the admin view and the console (the usage log keeps them all). */
    keepEvents: z.number().int().min(1).max(10_000).default(200),
  })
  .strict()
  .prefault({});

export type RolloutConfig = z.output<typeof RolloutConfigSchema>;
