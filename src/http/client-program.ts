/**
 * A client program's family from its `User-Agent` (the usage line's `clientProgram`): the product
 * name, never the whole header (a User-Agent may carry device ids or, badly built, a token).
 * docs/usage-log-and-report.md, "Client programs".
 */
import { remembered } from '../hot-path.js';

/** Longest family name kept. */
export const MAX_PROGRAM_LENGTH = 32;
/** Distinct User-Agent texts whose family is remembered (all forgotten at once when full). */
const REMEMBERED = 1_000;

/** RFC 9110 token characters: a product name is made of them. */
const PRODUCT_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

/** The product names outside comments (`(...)`), in order. */
function productNames(userAgent: string): string[] {
  const names: string[] = [];
  for (const word of userAgent.replace(/\([^)]*\)?/g, ' ').split(/\s+/)) {
    const name = PRODUCT_NAME.exec(word)?.[0];
    if (name !== undefined) names.push(name);
  }
  return names;
}

/**
 * DECISION: a client program's family is the product name of its User-Agent's first product
 * (RFC 9110 `product = token ["/" product-version]`: `RecipeBox/4.2.1 (iPhone…)` → `RecipeBox`),
 * except the browsers' compatibility token `Mozilla`, for which it is the last product
 * (`Mozilla/5.0 (…) RecipeWidget/0.9` → `RecipeWidget`); token characters only, cut to 32
 * characters; undefined without a User-Agent or without a product in it.
 */
export function programFamily(userAgent: string): string | undefined {
  const names = productNames(userAgent);
  const name = names[0] === 'Mozilla' && names.length > 1 ? names[names.length - 1] : names[0];
  return name?.slice(0, MAX_PROGRAM_LENGTH);
}

const rememberedFamily = remembered(REMEMBERED, (userAgent: string) => programFamily(userAgent) ?? '');

/** The family of a request's User-Agent header (remembered per distinct header), undefined without one. */
export function clientProgramOf(userAgent: string | undefined): string | undefined {
  if (userAgent === undefined || userAgent === '') return undefined;
  return rememberedFamily(userAgent.length > 512 ? userAgent.slice(0, 512) : userAgent) || undefined;
}
