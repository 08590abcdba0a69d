/**
 * The demo's legacy clients (docs/sandbox-and-demo.md): the sandbox's numbered api keys, each
 * installed in one of a few client programs (its User-Agent, JSON or XML), used anonymously and by
 * its numbered user, plus the named keys with alice and bob; and the requests they send, over
 * every catalogued operation, reads more than writes. Pure: the caller hands in the random source
 * and keeps the ids that writes hand out (`Memory`), so that updates and deletes name real ones.
 */
import { SANDBOX_API_KEYS, SANDBOX_CLIENT_COUNT, SANDBOX_LOGINS, sandboxClientKey, sandboxClientLogin } from '../dataset/dataset.js';
import type { OperationId } from '../../catalogue/operations.js';
import { SANDBOX_BEHAVIOUR } from '../behaviour.js';

export interface ClientProgram {
  readonly name: string;
  readonly userAgent: string;
  /** Asks for JSON (Accept: application/json); XML otherwise, the legacy default. */
  readonly json: boolean;
}

export const CLIENT_PROGRAMS: readonly ClientProgram[] = [
  { name: 'RecipeBox iOS', userAgent: 'RecipeBox/4.2.1 (iPhone; iOS 12.4; Scale/2.00)', json: true },
  { name: 'CookingPal Android', userAgent: 'CookingPal/2.8.0 (Linux; U; Android 9; SM-G960F)', json: true },
  { name: 'MealPlanner desktop', userAgent: 'MealPlanner.NET/1.3 (Windows NT 6.1; .NET CLR 4.0.30319)', json: false },
  { name: 'recipe widget', userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) RecipeWidget/0.9', json: true },
];

export interface Installation {
  readonly apiKey: string;
  readonly user: { readonly user: string; readonly password: string } | null;
  readonly program: ClientProgram;
}

/** Every installation: each numbered key anonymously and with its user, and the named keys with alice and bob. */
export function installations(): Installation[] {
  const out: Installation[] = [];
  for (let n = 1; n <= SANDBOX_CLIENT_COUNT; n++) {
    const program = CLIENT_PROGRAMS[n % CLIENT_PROGRAMS.length] ?? CLIENT_PROGRAMS[0]!;
    const { user, password } = sandboxClientLogin(n);
    out.push({ apiKey: sandboxClientKey(n), user: null, program }, { apiKey: sandboxClientKey(n), user: { user, password }, program });
  }
  out.push({ apiKey: SANDBOX_API_KEYS.paid, user: SANDBOX_LOGINS.alice, program: CLIENT_PROGRAMS[0]! });
  out.push({ apiKey: SANDBOX_API_KEYS.free, user: SANDBOX_LOGINS.bob, program: CLIENT_PROGRAMS[2]! });
  return out;
}

/** How often each operation is sent, relative to the others; `user`: it needs a signed-in user. */
export const OPERATION_MIX: ReadonlyArray<readonly [operation: OperationId, weight: number, user: boolean]> = [
  ['recipes.search', 30, false],
  ['reviews.list', 10, false],
  ['reviews.get', 6, false],
  ['grocery.list', 10, true],
  ['favorites.list', 8, true],
  ['trysoons.list', 6, true],
  ['grocery.create', 4, true],
  ['grocery.update', 2, true],
  ['grocery.delete', 2, true],
  ['reviews.create', 3, true],
  ['reviews.update', 2, true],
  ['reviews.delete', 1, true],
  ['favorites.create', 2, true],
  ['favorites.delete', 1, true],
  ['trysoons.create', 2, true],
  ['trysoons.delete', 1, true],
];

export interface DemoRequest {
  readonly operation: OperationId;
  readonly installation: Installation;
  readonly method: string;
  /** Path and query, the api key last. */
  readonly target: string;
  readonly form?: Readonly<Record<string, string>>;
}

/** Ids handed out by the writes, per user: the reviews (id and recipe) and grocery items (GUID) made. */
export interface Memory {
  readonly reviews: Map<string, Array<{ readonly id: number; readonly rid: number }>>;
  readonly grocery: Map<string, string[]>;
}

export type Random = () => number;

const KEYWORDS = ['soup', 'chicken', 'chocolate', 'salad', 'pasta', 'lemon', 'bread', 'curry', 'smoothie', 'potato'];
const RECIPE_IDS = 1500;
const REVIEW_IDS = 3000;

const pickFrom = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length) % list.length]!;
const recipe = (random: Random): number => 1 + Math.floor(random() * RECIPE_IDS);

function pickOperation(random: Random): readonly [OperationId, number, boolean] {
  const total = OPERATION_MIX.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const entry of OPERATION_MIX) {
    roll -= entry[1];
    if (roll < 0) return entry;
  }
  return OPERATION_MIX[0]!;
}

/** The next request of the population. */
export function nextRequest(random: Random, clients: readonly Installation[], memory: Memory): DemoRequest {
  const [operation, , needsUser] = pickOperation(random);
  const installation = pickFrom(random, needsUser ? clients.filter((c) => c.user !== null) : clients);
  const key = `api_key=${installation.apiKey}`;
  const user = installation.user?.user ?? '';
  const request = (method: string, path: string, form?: Record<string, string>, as: OperationId = operation): DemoRequest => ({
    operation: as,
    installation,
    method,
    target: `${path}${path.includes('?') ? '&' : '?'}${key}`,
    ...(form ? { form } : {}),
  });
  const review = (): Record<string, string> => ({ rating: String(1 + Math.floor(random() * 5)), makeagain: pickFrom(random, ['yes', 'no', 'yes']), message: pickFrom(random, ['Lovely', 'Too salty', 'Made it twice', 'Kids liked it']) });
  const ownReviews = memory.reviews.get(user) ?? [];
  const ownItems = memory.grocery.get(user) ?? [];
  switch (operation) {
    case 'recipes.search':
      return request('GET', `/recipes?${random() < 0.8 ? 'title_kw' : 'any_kw'}=${pickFrom(random, KEYWORDS)}&pg=${1 + Math.floor(random() * 3)}&rpp=${pickFrom(random, [10, 20, 25])}`);
    case 'reviews.list':
      return request('GET', `/reviews?rid=${recipe(random)}`);
    case 'reviews.get':
      return request('GET', `/review/${1 + Math.floor(random() * REVIEW_IDS)}`);
    case 'grocery.list':
      return request('GET', '/grocerylist');
    case 'favorites.list':
      return request('GET', '/favorites');
    case 'trysoons.list':
      return request('GET', '/trysoons');
    case 'grocery.create':
      return request('POST', '/grocerylist', { name: pickFrom(random, ['flour', 'eggs', 'milk', 'basil', 'rice']), quantity: pickFrom(random, ['1', '2 cups', '500 g']) });
    case 'grocery.update': {
      const guid = ownItems.at(-1);
      return guid ? request('PUT', `/grocerylist/${guid}`, { name: 'rye flour', quantity: '3 cups' }) : request('GET', '/grocerylist', undefined, 'grocery.list');
    }
    case 'grocery.delete': {
      const guid = ownItems.pop();
      return guid ? request('DELETE', `/grocerylist/${guid}`) : request('GET', '/grocerylist', undefined, 'grocery.list');
    }
    case 'reviews.create':
      return request('POST', '/reviews', { rid: String(recipe(random)), ...review() });
    case 'reviews.update': {
      const own = ownReviews.at(-1);
      return own ? request('PUT', `/review/${own.id}`, { rid: String(own.rid), ...review() }) : request('POST', '/reviews', { rid: String(recipe(random)), ...review() }, 'reviews.create');
    }
    case 'reviews.delete': {
      const own = ownReviews.pop();
      return own ? request('DELETE', `/review/${own.id}?rid=${own.rid}`) : request('GET', `/reviews?rid=${recipe(random)}`, undefined, 'reviews.list');
    }
    case 'favorites.create':
    case 'trysoons.create':
      return request('POST', operation === 'favorites.create' ? '/favorites' : '/trysoons', { rid: String(recipe(random)) });
    case 'favorites.delete':
    case 'trysoons.delete':
      return request('DELETE', `${operation === 'favorites.delete' ? '/favorites' : '/trysoons'}?rid=${recipe(random)}`);
    default: {
      // An operation the population has no script for (one added since) is sent as its sandbox example.
      const { method, target, body } = SANDBOX_BEHAVIOUR[operation as OperationId].example;
      return request(method, target, body ? Object.fromEntries(Object.entries(body).map(([name, value]) => [name, String(value)])) : undefined);
    }
  }
}

/** Keeps what a write answered (JSON): the review made, the grocery item added. */
export function remember(memory: Memory, sent: DemoRequest, answer: unknown): void {
  const user = sent.installation.user?.user;
  if (!user || answer === null || typeof answer !== 'object') return;
  const record = answer as { ReviewID?: unknown; RecipeID?: unknown; GUID?: unknown };
  if (sent.method === 'POST' && sent.target.startsWith('/reviews') && typeof record.ReviewID === 'number' && typeof record.RecipeID === 'number') {
    const list = memory.reviews.get(user) ?? [];
    list.push({ id: record.ReviewID, rid: record.RecipeID });
    memory.reviews.set(user, list.slice(-5));
  }
  if (sent.method === 'POST' && sent.target.startsWith('/grocerylist') && typeof record.GUID === 'string') {
    const list = memory.grocery.get(user) ?? [];
    list.push(record.GUID);
    memory.grocery.set(user, list.slice(-5));
  }
}
