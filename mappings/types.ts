/**
 * The contract of a mapping module: pure conversions between the legacy shapes and api2's, plus
 * a `run` that composes them around the api2 calls an operation needs. The only effect a mapping
 * has goes through the `Api2Port` it is handed, so every mapping runs the same on Node, on an edge
 * runtime and in a unit test.
 */
export type Api2Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Api2Request {
  readonly method: Api2Method;
  /** Path only, with path parameters already encoded. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** Sent as JSON. */
  readonly body?: Readonly<Record<string, unknown>>;
}

export interface Api2Reply {
  readonly status: number;
  /** Parsed JSON, or undefined for an empty body. */
  readonly body: unknown;
}

export type Api2Port = (request: Api2Request) => Promise<Api2Reply>;

/** A legacy request that passed the shared checks (src/request/canonicalise.ts). */
export interface LegacyCall {
  /** Its catalogue id. */
  readonly operation: string;
  /** Validated, typed parameter values, by legacy name. */
  readonly values: Readonly<Record<string, unknown>>;
}

export interface LegacyAnswer {
  readonly status: 200 | 204;
  /** The legacy record (src/legacy/records.ts), or null for 204. */
  readonly body: unknown;
}

/**
 * What a mapping remembers between requests; bounded; per gateway instance, or shared by replicas
 * (then a read or a write may wait: a mapping awaits what it remembers before it answers, so
 * another replica asked next knows it too).
 */
export interface MappingMemory {
  rememberReviewRecipe(reviewId: number, recipeId: number): void | Promise<void>;
  recipeOfReview(reviewId: number): number | undefined | Promise<number | undefined>;
}

export interface MappingOptions {
  /** ImageURL/HeroPhotoUrl for a recipe api2 sends without PhotoUrl. */
  readonly noPhotoImageUrl: string;
}

/**
 * A legacy field api2 cannot supply. `field` is a path in the legacy answer (`[]` steps into
 * every array entry); `fill` is the value the adapter puts there.
 */
export interface Loss {
  readonly field: string;
  readonly fill: unknown;
  readonly why: string;
}

/** An operation's api2 mapping; its catalogue entry (src/catalogue/entries/) names it as `api2.mapping`. */
export interface OperationMapping {
  /** The api2 calls the operation makes, in order, as `METHOD /path` (for the capability matrix). */
  readonly api2Calls: readonly string[];
  readonly losses: readonly Loss[];
  /** Behaviour that differs from the legacy backend. */
  readonly differences: readonly string[];
  /** Facts the mapping relies on that no source confirms ([I] in api2-notes). */
  readonly inferences: readonly string[];
  run(call: LegacyCall, api2: Api2Port, context: MappingContext): Promise<LegacyAnswer>;
}

export interface MappingContext {
  readonly memory: MappingMemory;
  readonly options: MappingOptions;
}
