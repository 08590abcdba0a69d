/**
 * The sandbox dataset: a deterministic, generated recipe collection in a NEUTRAL model (not the
 * legacy shape), so that the legacy and the api2 sandboxes read the same recipe the same way.
 * Everything derives from a seeded PRNG (mulberry32) and a fixed epoch: no Math.random, no
 * clock, so two builds with the same seed are equal.
 *
 * The legacy view of a recipe (records.ts RecipeInfo) is built here too, by a pure function, so
 * both the search answer and the uncatalogued recipe detail render it identically.
 */
import { PRIMARY_CATEGORY_TOKENS } from '../../legacy/param-rules.js';
import type { PrimaryCategoryToken } from '../../legacy/param-rules.js';
import { toLegacyDate } from '../../legacy/records.js';
import type { Poster, RecipeDetail, RecipeInfo } from '../../legacy/records.js';
import { avatarUrl48, imageUrl120, sizedImageUrl } from '../../legacy/image-urls.js';
import { UNKNOWN_POSTER } from '../../legacy/records.js';

// ---------------------------------------------------------------- neutral model

export interface SandboxUser {
  readonly userId: number;
  readonly userName: string;
  readonly firstName: string;
  readonly lastName: string;
  /** Full-size avatar. The 48 px variant is derived by avatarUrl48. */
  readonly avatarUrl: string;
  readonly isPremium: boolean;
  readonly isKitchenHelper: boolean;
  readonly usesBillingProvider: boolean;
  readonly memberSinceMs: number;
}

export interface NeutralRecipe {
  readonly id: number;
  readonly title: string;
  /** null and '' both occur, as in the legacy data (part 2.5). */
  readonly cuisine: string | null;
  readonly categoryToken: PrimaryCategoryToken;
  readonly categoryName: string;
  readonly subcategory: string;
  readonly ingredients: readonly string[];
  readonly instructions: string;
  readonly servings: number;
  readonly photoUrl: string | null;
  /** null: the poster is unknown. */
  readonly posterUserId: number | null;
  readonly isPrivate: boolean;
  readonly hideFromPublicSearch: boolean;
  readonly createdAtMs: number;
  readonly qualityScore: number;
  readonly maxImageSquare: number;
  readonly totalTries: number;
}

export type MakeAgain = 'yes' | 'no' | 'notmake';

export interface NeutralReview {
  readonly id: number;
  readonly recipeId: number;
  readonly userId: number;
  readonly rating: number;
  readonly makeAgain: MakeAgain;
  readonly comment: string;
  readonly totalMinutes: number | null;
  readonly activeMinutes: number | null;
  readonly createdAtMs: number;
  readonly modifiedAtMs: number;
}

export interface NeutralGroceryItem {
  readonly id: number;
  /** Upper-case GUID, from guidFromCounter(id). */
  readonly guid: string;
  readonly userId: number;
  readonly recipeId: number | null;
  readonly name: string;
  readonly quantity: string;
  readonly notes: string;
  readonly department: string;
  readonly isChecked: boolean | null;
  readonly createdAtMs: number;
  readonly modifiedAtMs: number;
}

/** One entry of a user's favorites or try soons, in the user's order. */
export interface ListEntry {
  readonly userId: number;
  readonly recipeId: number;
}

export interface SandboxDataset {
  readonly seed: number;
  readonly users: readonly SandboxUser[];
  readonly recipes: readonly NeutralRecipe[];
  readonly reviews: readonly NeutralReview[];
  readonly groceryItems: readonly NeutralGroceryItem[];
  readonly favorites: readonly ListEntry[];
  readonly trySoons: readonly ListEntry[];
}

// ---------------------------------------------------------------- credentials (data)

export type Plan = 'free' | 'paid';

export const SANDBOX_API_KEYS = { free: 'sandbox-free-key', paid: 'sandbox-paid-key' } as const;

export const SANDBOX_LOGINS = {
  alice: { user: 'alice', password: 'alice-pass', userId: 1001 },
  bob: { user: 'bob', password: 'bob-pass', userId: 1002 },
} as const;

/**
 * DECISION: a population of clients beside the two named keys and users, so that a percentage step
 * (sticky per api key and user) and the report's client sections have clients to tell apart:
 * api keys `sandbox-key-01` .. `sandbox-key-40` (every eighth, 08 16 24 32 40, on the paid plan) and
 * users `user01` .. `user40` (password `user01-pass` ..., user ids 3001 ..); docs/sandbox-and-demo.md.
 */
export const SANDBOX_CLIENT_COUNT = 40;
export const SANDBOX_PAID_EVERY = 8;
const CLIENT_USER_ID_BASE = 3000;

export interface SandboxLogin {
  readonly user: string;
  readonly password: string;
  readonly userId: number;
}

const two = (n: number): string => String(n).padStart(2, '0');

/** The n-th client api key (1-based). */
export function sandboxClientKey(n: number): string {
  return `sandbox-key-${two(n)}`;
}

/** The n-th client user (1-based). */
export function sandboxClientLogin(n: number): SandboxLogin {
  return { user: `user${two(n)}`, password: `user${two(n)}-pass`, userId: CLIENT_USER_ID_BASE + n };
}

/** The number of a client key or user name (`sandbox-key-07`, `user07`: 7), when it is one. */
function clientNumber(text: string, prefix: string): number | null {
  if (!text.startsWith(prefix)) return null;
  const digits = text.slice(prefix.length);
  const n = /^\d\d$/.test(digits) ? Number(digits) : 0;
  return n >= 1 && n <= SANDBOX_CLIENT_COUNT ? n : null;
}

export function planOfKey(apiKey: string): Plan | null {
  if (apiKey === SANDBOX_API_KEYS.free) return 'free';
  if (apiKey === SANDBOX_API_KEYS.paid) return 'paid';
  const n = clientNumber(apiKey, 'sandbox-key-');
  if (n === null) return null;
  return n % SANDBOX_PAID_EVERY === 0 ? 'paid' : 'free';
}

/** Every client the sandbox knows: each api key alone and with each user of its kind (named keys with alice and bob, numbered key n with user n). */
export function sandboxClients(): Array<{ readonly apiKey: string; readonly user: string | null }> {
  const named = Object.values(SANDBOX_API_KEYS).flatMap((apiKey) => [null, ...Object.values(SANDBOX_LOGINS).map((login) => login.user)].map((user) => ({ apiKey, user })));
  const numbered = Array.from({ length: SANDBOX_CLIENT_COUNT }, (_, i) => [
    { apiKey: sandboxClientKey(i + 1), user: null },
    { apiKey: sandboxClientKey(i + 1), user: sandboxClientLogin(i + 1).user },
  ]).flat();
  return [...named, ...numbered];
}

/** The login of a user name (lower case), named or numbered; undefined for anybody else. */
export function sandboxLogin(userName: string): SandboxLogin | undefined {
  const named = Object.values(SANDBOX_LOGINS).find((login) => login.user === userName);
  if (named) return named;
  const n = clientNumber(userName, 'user');
  return n === null ? undefined : sandboxClientLogin(n);
}

// ---------------------------------------------------------------- urls

export const PHOTO_HOST = 'https://photos.sandbox.invalid';
/** DECISION: recipes without a photo show this fixed image in ImageURL and HeroPhotoUrl. */
export const PLACEHOLDER_PHOTO_URL = `${PHOTO_HOST}/image/upload/placeholder/recipe-nophoto.png`;

export function webUrl(recipeId: number): string {
  return `https://www.sandbox.invalid/recipe/${recipeId}`;
}

// The size rule lives with the legacy conventions, shared with the api2 mappings.
export { avatarUrl48, imageUrl120, sizedImageUrl };

// ---------------------------------------------------------------- PRNG

export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;

function pick<T>(rng: Rng, list: readonly T[]): T {
  const value = list[Math.floor(rng() * list.length)];
  if (value === undefined) throw new Error('pick from an empty list');
  return value;
}

function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

/** Distinct entries of `list`, in a deterministic random order. */
function sample<T>(rng: Rng, list: readonly T[], count: number): T[] {
  const copy = [...list];
  const out: T[] = [];
  while (out.length < count && copy.length > 0) {
    const [value] = copy.splice(Math.floor(rng() * copy.length), 1);
    if (value !== undefined) out.push(value);
  }
  return out;
}

/**
 * DECISION: deterministic upper-case GUIDs from a counter (no crypto): 20 hex digits from the PRNG
 * seeded by the counter, then the counter itself in the last 12, so distinct counters never collide.
 */
export function guidFromCounter(counter: number): string {
  const rng = mulberry32(0x9e3779b9 ^ counter);
  let hex = '';
  for (let i = 0; i < 5; i++) hex += Math.floor(rng() * 0x10000).toString(16).padStart(4, '0');
  hex = (hex + counter.toString(16).padStart(12, '0')).toUpperCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

// ---------------------------------------------------------------- word lists

export const CATEGORY_NAMES: Readonly<Record<PrimaryCategoryToken, string>> = {
  dessert: 'Desserts',
  appetizer: 'Appetizers',
  bread: 'Breads',
  breakfast: 'Breakfast',
  drinks: 'Drinks',
  'main dish': 'Main Dish',
  salad: 'Salads',
  'side dish': 'Side Dish',
  soup: 'Soups',
  marinade: 'Marinades',
  other: 'Other',
};

interface CategoryWords {
  readonly mains: readonly string[];
  readonly dishes: readonly string[];
  readonly subcategories: readonly string[];
}

const WORDS: Readonly<Record<PrimaryCategoryToken, CategoryWords>> = {
  dessert: {
    mains: ['Chocolate', 'Chocolate', 'Vanilla', 'Lemon', 'Strawberry', 'Apple', 'Pumpkin', 'Peanut Butter', 'Coconut'],
    dishes: ['Cake', 'Brownies', 'Pie', 'Cookies', 'Mousse', 'Pudding', 'Cheesecake', 'Tart'],
    subcategories: ['Cakes', 'Cookies', 'Pies', 'Puddings', ''],
  },
  appetizer: {
    mains: ['Chicken', 'Shrimp', 'Spinach', 'Mushroom', 'Cheese', 'Bacon', 'Avocado', 'Crab'],
    dishes: ['Dip', 'Bites', 'Skewers', 'Wings', 'Crostini', 'Rolls'],
    subcategories: ['Dips', 'Finger Foods', 'Wings', ''],
  },
  bread: {
    mains: ['Banana', 'Zucchini', 'Garlic', 'Chocolate', 'Cornmeal', 'Cinnamon', 'Rosemary'],
    dishes: ['Bread', 'Loaf', 'Muffins', 'Rolls', 'Focaccia', 'Biscuits'],
    subcategories: ['Quick Breads', 'Yeast Breads', 'Muffins', ''],
  },
  breakfast: {
    mains: ['Chocolate', 'Blueberry', 'Bacon', 'Spinach', 'Oatmeal', 'Buttermilk', 'Sausage'],
    dishes: ['Pancakes', 'Waffles', 'Omelet', 'Frittata', 'Scramble', 'Granola'],
    subcategories: ['Eggs', 'Pancakes', 'Cereals', ''],
  },
  drinks: {
    mains: ['Chocolate', 'Mango', 'Strawberry', 'Lemon', 'Ginger', 'Mint', 'Coffee'],
    dishes: ['Smoothie', 'Shake', 'Lemonade', 'Punch', 'Cocktail', 'Latte'],
    subcategories: ['Smoothies', 'Cocktails', 'Hot Drinks', ''],
  },
  'main dish': {
    mains: ['Chicken', 'Chicken', 'Beef', 'Pork', 'Salmon', 'Shrimp', 'Turkey', 'Tofu', 'Mushroom'],
    dishes: ['Casserole', 'Stir Fry', 'Tacos', 'Curry', 'Lasagna', 'Skillet', 'Pasta', 'Roast'],
    subcategories: ['Poultry', 'Beef', 'Pasta', 'Seafood', ''],
  },
  salad: {
    mains: ['Chicken', 'Chicken', 'Tuna', 'Spinach', 'Quinoa', 'Potato', 'Cucumber', 'Kale'],
    dishes: ['Salad', 'Salad', 'Salad', 'Slaw', 'Salad Bowl'],
    subcategories: ['Green Salads', 'Pasta Salads', 'Grain Salads', ''],
  },
  'side dish': {
    mains: ['Potato', 'Green Bean', 'Carrot', 'Rice', 'Corn', 'Sweet Potato', 'Broccoli'],
    dishes: ['Gratin', 'Mash', 'Pilaf', 'Casserole', 'Fries', 'Bake'],
    subcategories: ['Vegetables', 'Potatoes', 'Rice', ''],
  },
  soup: {
    mains: ['Chicken', 'Chicken', 'Tomato', 'Lentil', 'Mushroom', 'Potato', 'Beef', 'Onion'],
    dishes: ['Soup', 'Soup', 'Soup', 'Chowder', 'Bisque', 'Stew', 'Noodle Soup'],
    subcategories: ['Cream Soups', 'Broths', 'Chowders', ''],
  },
  marinade: {
    mains: ['Chicken', 'Teriyaki', 'Citrus', 'Garlic', 'Balsamic', 'Chipotle', 'Herb'],
    dishes: ['Marinade', 'Marinade', 'Rub', 'Glaze', 'Brine'],
    subcategories: ['Poultry Marinades', 'Meat Marinades', ''],
  },
  other: {
    mains: ['Chocolate', 'Chicken', 'Tomato', 'Herb', 'Chili', 'Garlic'],
    dishes: ['Sauce', 'Dressing', 'Jam', 'Pickles', 'Spread', 'Salsa'],
    subcategories: ['Sauces', 'Condiments', ''],
  },
};

const ADJECTIVES = ['Easy', 'Classic', 'Spicy', 'Creamy', "Grandma's", 'Quick', 'Roasted', 'Smoky', 'Rustic', 'Hearty', 'Crispy', 'Slow Cooker'];

/** The ingredient a title's main word stands for; default: the word in lower case. */
const MAIN_INGREDIENT: Readonly<Record<string, string>> = {
  Chicken: 'chicken breast',
  Chocolate: 'dark chocolate',
  Cheese: 'cheddar cheese',
  Oatmeal: 'rolled oats',
  Teriyaki: 'soy sauce',
  Citrus: 'orange juice',
  Balsamic: 'balsamic vinegar',
  Chipotle: 'chipotle peppers',
  Herb: 'fresh herbs',
  Beef: 'ground beef',
  Tomato: 'tomatoes',
};

export const INGREDIENTS = [
  'salt', 'black pepper', 'olive oil', 'butter', 'garlic', 'onion', 'sugar', 'all-purpose flour', 'eggs', 'milk',
  'heavy cream', 'lemon juice', 'chicken broth', 'tomatoes', 'carrots', 'celery', 'parsley', 'basil', 'oregano', 'cumin',
  'paprika', 'brown sugar', 'vanilla extract', 'baking powder', 'honey', 'soy sauce', 'rice', 'potatoes', 'cheddar cheese',
  'parmesan cheese', 'sour cream', 'bell pepper', 'spinach', 'mushrooms', 'ginger', 'cilantro', 'lime juice', 'cinnamon',
  'walnuts', 'cocoa powder', 'bacon', 'yogurt', 'mayonnaise', 'red wine vinegar', 'thyme', 'rosemary', 'chili powder',
  'green onions', 'corn', 'black beans',
] as const;

/** The suggested cuisines of legacy-interface.md part 4.5. */
export const CUISINES = [
  'Afghan', 'African', 'American', 'American-South', 'Asian', 'Australian', 'Brazilian', 'Cajun', 'Canadian', 'Caribbean',
  'Chinese', 'Croatian', 'Cuban', 'Dessert', 'Eastern European', 'English', 'French', 'German', 'Greek', 'Hawaiian',
  'Hungarian', 'India', 'Indian', 'Irish', 'Italian', 'Japanese', 'Jewish', 'Korean', 'Latin', 'Mediterranean', 'Mexican',
  'Middle Eastern', 'Moroccan', 'Polish', 'Russian', 'Scandanavian', 'Seafood', 'Southern', 'Southwestern', 'Spanish',
  'Tex-Mex', 'Thai', 'Vegan', 'Vegetarian', 'Vietnamese',
] as const;

const FIRST_NAMES = ['Maria', 'James', 'Priya', 'Chen', 'Olivia', 'Lucas', 'Amara', 'Sofia', 'Noah', 'Yuki', 'Mateo', 'Emma', 'Omar', 'Ingrid', 'Kwame'];
const LAST_NAMES = ['Garcia', 'Smith', 'Patel', 'Wong', 'Rossi', 'Müller', 'Okafor', 'Silva', 'Kim', 'Novak', 'Dubois', 'Berg'];
const METHODS = ['Bake until golden', 'Simmer for twenty minutes', 'Grill over medium heat', 'Chill for one hour', 'Blend until smooth', 'Saute until tender'];
const REVIEW_COMMENTS = [
  'Loved it, will make again.', 'Too salty for our taste.', 'My family asked for seconds!', 'Easy weeknight meal.',
  'Needed more seasoning.', 'Perfect as written.', 'I halved the sugar and it was great.', 'Took longer than stated.',
  'Great with a side salad.', 'Not my favorite, but the kids liked it.',
];
const QUANTITIES = ['1', '2', '1 lb', '2 cups', '1 bunch', '500 g', '1 dozen', '3 cans'];
const DEPARTMENTS = ['Produce', 'Dairy', 'Meat', 'Bakery', 'Pantry', 'Spices', 'Poultry', 'Beverages'];

// ---------------------------------------------------------------- generation

export const DEFAULT_SEED = 20170101;
export const DEFAULT_RECIPE_COUNT = 1500;
/** 2012-01-01T00:00:00Z: every date of the dataset is this plus a deterministic offset. */
export const BASE_EPOCH_MS = 1_325_376_000_000;
const DAY_MS = 86_400_000;
const POSTER_COUNT = 30;

export interface DatasetOptions {
  readonly seed?: number;
  readonly recipeCount?: number;
}

export function buildDataset(options: DatasetOptions = {}): SandboxDataset {
  const seed = options.seed ?? DEFAULT_SEED;
  const rng = mulberry32(seed);
  const users = buildUsers(rng);
  const posters = users.slice(2);
  const recipes: NeutralRecipe[] = [];
  for (let id = 1; id <= (options.recipeCount ?? DEFAULT_RECIPE_COUNT); id++) recipes.push(buildRecipe(rng, id, users, posters));
  const reviews = buildReviews(rng, recipes, users, posters);
  const publicIds = recipes.filter((r) => !r.isPrivate && !r.hideFromPublicSearch).map((r) => r.id);
  const alice = SANDBOX_LOGINS.alice.userId;
  const bob = SANDBOX_LOGINS.bob.userId;
  const entries = (userId: number, count: number): ListEntry[] => sample(rng, publicIds, count).map((recipeId) => ({ userId, recipeId }));
  const groceryItems = buildGrocery(rng, [
    [alice, 5],
    [bob, 3],
  ]);
  const favorites = [...entries(alice, 6), ...entries(bob, 3)];
  const trySoons = [...entries(alice, 4), ...entries(bob, 2)];
  // The numbered clients come from a PRNG of their own, after everything else: the recipes,
  // reviews and alice's and bob's data are the same as without them.
  const clientRng = mulberry32(seed ^ 0x5eed_c11e);
  const clients = buildClientUsers(clientRng);
  const clientEntries = (count: number): ListEntry[] =>
    clients.flatMap((user) => sample(clientRng, publicIds, intBetween(clientRng, 0, count)).map((recipeId) => ({ userId: user.userId, recipeId })));
  const clientGrocery = buildGrocery(
    clientRng,
    clients.map((user) => [user.userId, intBetween(clientRng, 0, 4)] as const),
    groceryItems.length,
  );
  return {
    seed,
    users: [...users, ...clients],
    recipes,
    reviews,
    groceryItems: [...groceryItems, ...clientGrocery],
    favorites: [...favorites, ...clientEntries(5)],
    trySoons: [...trySoons, ...clientEntries(3)],
  };
}

function buildClientUsers(rng: Rng): SandboxUser[] {
  const users: SandboxUser[] = [];
  for (let n = 1; n <= SANDBOX_CLIENT_COUNT; n++) {
    const { user, userId } = sandboxClientLogin(n);
    const isPremium = rng() < 0.2;
    users.push({
      userId,
      userName: user,
      firstName: pick(rng, FIRST_NAMES),
      lastName: pick(rng, LAST_NAMES),
      avatarUrl: `${PHOTO_HOST}/image/upload/avatar/${userId}.jpg`,
      isPremium,
      isKitchenHelper: false,
      usesBillingProvider: isPremium,
      memberSinceMs: BASE_EPOCH_MS - intBetween(rng, 0, 900) * DAY_MS,
    });
  }
  return users;
}

function buildUsers(rng: Rng): SandboxUser[] {
  const avatar = (id: number): string => `${PHOTO_HOST}/image/upload/avatar/${id}.jpg`;
  const users: SandboxUser[] = [
    { userId: 1001, userName: 'alice', firstName: 'Alice', lastName: 'Archer', avatarUrl: avatar(1001), isPremium: true, isKitchenHelper: false, usesBillingProvider: true, memberSinceMs: BASE_EPOCH_MS - 400 * DAY_MS },
    { userId: 1002, userName: 'bob', firstName: 'Bob', lastName: 'Baker', avatarUrl: avatar(1002), isPremium: false, isKitchenHelper: false, usesBillingProvider: false, memberSinceMs: BASE_EPOCH_MS - 200 * DAY_MS },
  ];
  for (let i = 0; i < POSTER_COUNT; i++) {
    const userId = 2001 + i;
    const firstName = pick(rng, FIRST_NAMES);
    const lastName = pick(rng, LAST_NAMES);
    const isPremium = rng() < 0.3;
    users.push({
      userId,
      userName: `${firstName.toLowerCase()}${lastName.slice(0, 1).toLowerCase()}${userId % 1000}`,
      firstName,
      lastName,
      avatarUrl: avatar(userId),
      isPremium,
      isKitchenHelper: rng() < 0.1,
      usesBillingProvider: isPremium && rng() < 0.5,
      memberSinceMs: BASE_EPOCH_MS - intBetween(rng, 0, 1500) * DAY_MS,
    });
  }
  return users;
}

function buildRecipe(rng: Rng, id: number, users: readonly SandboxUser[], posters: readonly SandboxUser[]): NeutralRecipe {
  const categoryToken = pick(rng, PRIMARY_CATEGORY_TOKENS);
  const words = WORDS[categoryToken];
  const main = pick(rng, words.mains);
  const title = `${rng() < 0.5 ? `${pick(rng, ADJECTIVES)} ` : ''}${main} ${pick(rng, words.dishes)}`;
  const mainIngredient = MAIN_INGREDIENT[main] ?? main.toLowerCase();
  const others = sample(rng, INGREDIENTS.filter((i) => i !== mainIngredient), intBetween(rng, 2, 7));
  const ingredients = [mainIngredient, ...others];
  const cuisineRoll = rng();
  const cuisine = cuisineRoll < 0.08 ? null : cuisineRoll < 0.13 ? '' : pick(rng, CUISINES);
  const hasPhoto = rng() < 0.6;
  const posterRoll = rng();
  const posterUserId = posterRoll < 0.25 ? null : posterRoll < 0.28 ? pick(rng, users.slice(0, 2)).userId : pick(rng, posters).userId;
  const subcategory = pick(rng, words.subcategories);
  return {
    id,
    title,
    cuisine,
    categoryToken,
    categoryName: CATEGORY_NAMES[categoryToken],
    subcategory,
    ingredients,
    instructions: `Prepare the ${ingredients.slice(0, 2).join(' and ')}. Combine with the ${others.slice(1).join(', ') || 'seasoning'}. ${pick(rng, METHODS)}, then serve.`,
    servings: intBetween(rng, 1, 12),
    photoUrl: hasPhoto ? `${PHOTO_HOST}/image/upload/recipe/${id}-${intBetween(rng, 1, 9)}.jpg` : null,
    posterUserId,
    // DECISION: only recipes of a known poster can be private (somebody must own them).
    isPrivate: posterUserId !== null && rng() < 0.03,
    hideFromPublicSearch: rng() < 0.02,
    createdAtMs: BASE_EPOCH_MS + id * 2 * DAY_MS + intBetween(rng, 0, DAY_MS - 1),
    qualityScore: Math.round(rng() * 500) / 100,
    maxImageSquare: hasPhoto ? pick(rng, [480, 960, 1200, 1600]) : 0,
    totalTries: Math.floor(rng() * rng() * 400),
  };
}

function buildReviews(rng: Rng, recipes: readonly NeutralRecipe[], users: readonly SandboxUser[], posters: readonly SandboxUser[]): NeutralReview[] {
  const reviews: NeutralReview[] = [];
  for (const recipe of recipes) {
    if (recipe.isPrivate || rng() < 0.3) continue;
    const reviewers = sample(rng, posters, intBetween(rng, 1, 6));
    // DECISION: alice and bob review a few recipes each, so their own reviews exist from the start.
    for (const login of users.slice(0, 2)) if (rng() < 0.03) reviewers.push(login);
    for (const reviewer of reviewers) {
      const rating = pick(rng, [5, 5, 5, 4, 4, 4, 3, 3, 2, 1]);
      const makeAgain: MakeAgain = rng() < 0.1 ? 'notmake' : rating >= 3 ? 'yes' : 'no';
      const totalMinutes = rng() < 0.2 ? null : intBetween(rng, 2, 36) * 5;
      const createdAtMs = recipe.createdAtMs + intBetween(rng, 1, 900) * DAY_MS / 3;
      reviews.push({
        id: reviews.length + 1,
        recipeId: recipe.id,
        userId: reviewer.userId,
        rating,
        makeAgain,
        comment: pick(rng, REVIEW_COMMENTS),
        totalMinutes,
        activeMinutes: totalMinutes === null || rng() < 0.3 ? null : Math.min(totalMinutes, intBetween(rng, 1, 12) * 5),
        createdAtMs: Math.floor(createdAtMs),
        modifiedAtMs: Math.floor(createdAtMs) + (rng() < 0.2 ? intBetween(rng, 1, 30) * DAY_MS : 0),
      });
    }
  }
  return reviews;
}

function buildGrocery(rng: Rng, owners: readonly (readonly [number, number])[], firstId = 0): NeutralGroceryItem[] {
  const items: NeutralGroceryItem[] = [];
  for (const [userId, count] of owners) {
    for (let i = 0; i < count; i++) {
      const id = firstId + items.length + 1;
      const createdAtMs = BASE_EPOCH_MS + 1200 * DAY_MS + id * 3_600_000;
      items.push({
        id,
        guid: guidFromCounter(id),
        userId,
        recipeId: null,
        name: pick(rng, INGREDIENTS),
        quantity: pick(rng, QUANTITIES),
        notes: rng() < 0.5 ? '' : 'organic if possible',
        department: pick(rng, DEPARTMENTS),
        isChecked: null,
        createdAtMs,
        modifiedAtMs: createdAtMs,
      });
    }
  }
  return items;
}

// ---------------------------------------------------------------- legacy view

export interface ReviewStats {
  readonly count: number;
  /** Average rating; 0 when there are no reviews (part 2.5). */
  readonly average: number;
}

export function toLegacyPoster(user: SandboxUser | null): Poster {
  if (!user) return UNKNOWN_POSTER;
  return {
    UserID: user.userId,
    UserName: user.userName,
    ImageURL48: avatarUrl48(user.avatarUrl),
    // DECISION: PhotoUrl, PremiumExpiryDate and MemberSince are null, as in every sampled result.
    PhotoUrl: null,
    IsPremium: user.isPremium,
    IsKitchenHelper: user.isKitchenHelper,
    PremiumExpiryDate: null,
    MemberSince: null,
    IsUsingBillingProvider: user.usesBillingProvider,
  };
}

/**
 * The legacy RecipeInfo of a neutral recipe. Pure: the caller supplies the poster, the live review
 * stats and the requesting user's favorites (null without a user: IsBookmark is then null).
 *
 * What an api2 RecipeInfox (PhotoUrl, Servings, Poster{UserID,UserName,FirstName,LastName,PhotoUrl},
 * CreationDate ISO, plus the same-named fields) could NOT reproduce from its own answer:
 * - QualityScore, MaxImageSquare, HideFromPublicSearch: not returned by api2 at all.
 * - ImageURL120: not returned; only guessable with the size rule of sizedImageUrl [I].
 * - ImageURL / HeroPhotoUrl when the recipe has no photo: api2 PhotoUrl is then null or its own
 *   placeholder, not PLACEHOLDER_PHOTO_URL [I].
 * - Poster.ImageURL48 (only by the size rule from Poster.PhotoUrl [I]), Poster.IsPremium,
 *   Poster.IsKitchenHelper, Poster.IsUsingBillingProvider: not in UserInfoTinyx.
 * - The unknown poster's exact shape (UserID 0 and false flags) when api2 sends no Poster.
 * - CreationDate to the millisecond only if api2's ISO string keeps milliseconds [I].
 * StarRatingIMG (always null), PremiumExpiryDate, MemberSince and Poster.PhotoUrl (null) need no source.
 */
export function toRecipeInfo(
  recipe: NeutralRecipe,
  poster: SandboxUser | null,
  stats: ReviewStats,
  bookmarks: ReadonlySet<number> | null,
): RecipeInfo {
  const photo = recipe.photoUrl ?? PLACEHOLDER_PHOTO_URL;
  return {
    RecipeID: recipe.id,
    Title: recipe.title,
    Cuisine: recipe.cuisine,
    Category: recipe.categoryName,
    Subcategory: recipe.subcategory,
    StarRating: stats.count === 0 ? 0 : stats.average,
    StarRatingIMG: null,
    WebURL: webUrl(recipe.id),
    ImageURL: photo,
    ImageURL120: imageUrl120(photo),
    ReviewCount: stats.count,
    Poster: toLegacyPoster(poster),
    IsPrivate: recipe.isPrivate,
    HideFromPublicSearch: recipe.hideFromPublicSearch,
    IsBookmark: bookmarks?.has(recipe.id) ? true : null,
    YieldNumber: recipe.servings,
    QualityScore: recipe.qualityScore,
    CreationDate: toLegacyDate(recipe.createdAtMs),
    MaxImageSquare: recipe.maxImageSquare,
    TotalTries: recipe.totalTries,
    HeroPhotoUrl: photo,
  };
}

export function toRecipeDetail(
  recipe: NeutralRecipe,
  poster: SandboxUser | null,
  stats: ReviewStats,
  bookmarks: ReadonlySet<number> | null,
): RecipeDetail {
  return {
    ...toRecipeInfo(recipe, poster, stats, bookmarks),
    Ingredients: recipe.ingredients.map((name) => ({ Name: name })),
    Instructions: recipe.instructions,
  };
}
