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
import { CONFIDENCE, ShadowAgreementGateSchema } from './rollout-gates.js';

/**
 * A client a plan names: the label the usage log writes for it (`observability.clientLabels`), or
 * its 16-hex-digit client hash.
 */
const ClientNameSchema = z.string().min(1).max(200);

/**
 * A cohort step: api2 for the named clients (and for those of the cohort steps before it, at every
 * later step), plus `percent` of the other clients (default 0).
 */
export const CohortStepSchema = z
  .object({
    clients: z.array(ClientNameSchema).min(1, 'names at least one client (a label the usage log writes, or a client hash)'),
    percent: z.number().min(0).max(100).default(0),
  })
  .strict();
export type CohortStep = z.output<typeof CohortStepSchema>;

/** `shadow`, the share of clients (percent, more than 0, at most 100) answered by api2, or a cohort. */
export const RolloutStepSchema = z.union([z.literal('shadow'), z.number().gt(0).max(100), CohortStepSchema]);
export type RolloutStep = z.output<typeof RolloutStepSchema>;

/** The share of clients a step sends to api2 beside its named clients. */
export const percentOf = (step: RolloutStep): number | null => (step === 'shadow' ? null : typeof step === 'number' ? step : step.percent);

/** What a failed gate does: one step back (a first shadow step starts again), back to legacy, or pause where it is. */
export const ROLLOUT_FAILURE_ACTIONS = ['back-one-step', 'legacy', 'pause'] as const;
export type RolloutFailureAction = (typeof ROLLOUT_FAILURE_ACTIONS)[number];

const DAY_MS = 86_400_000;
/** More than 0: no number of answers proves api2 fails less often than legacy plus nothing. */
const EXCESS = z.number().gt(0, 'must be more than 0: no number of answers proves api2 fails no more often than legacy (0.001 tolerates one more error in a thousand)').max(1);

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
        /** The disagreement rate of the shadow comparisons, judged with an anytime-valid bound (required to leave a shadow step). */
        shadowAgreement: ShadowAgreementGateSchema.optional(),
        /** api2's 5xx rate (a fallback counts as one) at most legacy's plus `maxExcess`, with `confidence`. */
        errorRate: z.object({ maxExcess: EXCESS.default(0.01), confidence: CONFIDENCE.default(0.95) }).strict().prefault({}),
        /** api2's p95 at most legacy's × `maxRatio` + `graceMs` (the latency buckets are coarse), over at least `minAnswers`. */
        latencyP95: z
          .object({
            maxRatio: z.number().min(1).max(100).default(1.5),
            graceMs: z.number().int().min(0).max(60_000).default(20),
            minAnswers: z.number().int().min(1).max(1_000_000).default(20),
          })
          .strict()
          .optional(),
        /** The api2 circuit breaker did not open during the step. */
        breaker: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    onFailure: z.enum(ROLLOUT_FAILURE_ACTIONS).default('back-one-step'),
    /**
     * A percentage (or cohort) step that has had no api2 answer for `afterMs` (its share holds none
     * of the clients seen, or the operation is rarely called): `widen` moves it to the next step,
     * `hold` keeps it where it is and says so. DECISION: widen after 30 minutes (docs/rollout.md
     * "A quiet step"): the next step is watched by the same gates, and a step that never ends
     * protects nobody while it keeps the move from finishing.
     */
    whenQuiet: z
      .object({ afterMs: z.number().int().min(0).max(30 * DAY_MS).default(1_800_000), action: z.enum(['widen', 'hold']).default('widen') })
      .strict()
      .prefault({}),
    /** Clients held back: answered by legacy at every step (the last is then "done except N held clients"). */
    hold: z.array(ClientNameSchema).default([]),
  })
  .strict()
  .superRefine((plan, ctx) => {
    plan.steps.forEach((step, index) => {
      if (step === 'shadow' && index > 0) {
        ctx.addIssue({ code: 'custom', path: ['steps', index], message: 'a shadow step can only be the first (it exposes no client; the steps after it expose more)' });
      }
      const before = plan.steps[index - 1];
      const [now, then] = [percentOf(step), before === undefined ? null : percentOf(before)];
      // A cohort step may keep the percent before it (it adds clients); a percentage must grow.
      if (now !== null && then !== null && (typeof step === 'number' ? now <= then : now < then)) {
        ctx.addIssue({ code: 'custom', path: ['steps', index], message: `must be more than the step before it (${then} %): each step exposes more clients` });
      }
      if (typeof step === 'object') {
        for (const name of step.clients.filter((client) => plan.hold.includes(client))) {
          ctx.addIssue({ code: 'custom', path: ['steps', index, 'clients'], message: `names ${name}, which the plan holds back (hold): a client is either chosen or held` });
        }
      }
    });
    if (plan.steps.includes('shadow') && !plan.gates.shadowAgreement) {
      ctx.addIssue({ code: 'custom', path: ['gates', 'shadowAgreement'], message: 'is required by a shadow step: the agreement that moves it on ({ "maxDisagreement": 0.01, "confidence": 0.95 })' });
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
