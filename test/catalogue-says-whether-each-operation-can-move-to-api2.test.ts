/**
 * The catalogue answers "can this operation move to api2, and if not why" (movability), from the
 * entry alone, and the config refuses exactly the moves it refuses, with its reason.
 */
import { describe, expect, it } from 'vitest';
import { movability } from '../src/catalogue/movability.js';
import { OPERATIONS } from '../src/catalogue/operations.js';
import { parseConfig } from '../src/config/schema.js';

const upstreams = { legacy: { baseUrl: 'http://127.0.0.1:1' }, api2: { baseUrl: 'https://127.0.0.1:2' } };

describe('movability', () => {
  it.each(OPERATIONS.map((op) => [op.id, op] as const))('%s: the config accepts api2 exactly when the catalogue says it can move, and gives its reason when not', (id, op) => {
    const answer = movability(id);
    expect(answer.canMove).toBe('mapping' in op.api2);
    const result = parseConfig({ upstreams, routes: { [id]: { mode: 'api2' } } });
    if (answer.canMove) {
      expect(result.ok, result.ok ? '' : result.errors.join('\n')).toBe(true);
      return;
    }
    expect(answer.reason.length).toBeGreaterThan(20);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.join('\n')).toContain(`${id} cannot be routed to api2 (api2): ${answer.reason}`);
  });

  it.each(['favorites.create', 'favorites.delete', 'trysoons.create', 'trysoons.delete'])('%s cannot move: api2 has no endpoint to add or remove', (id) => {
    expect(movability(id)).toEqual({ canMove: false, reason: expect.stringContaining('api2 publishes no endpoint') });
  });

  it('search, reviews and grocery reads can move', () => {
    for (const id of ['recipes.search', 'reviews.get', 'grocery.list', 'favorites.list']) expect(movability(id)).toEqual({ canMove: true });
  });

  it('an id the catalogue does not hold cannot move, and says so', () => {
    expect(movability('recipes.random')).toEqual({ canMove: false, reason: 'recipes.random is not a catalogued operation' });
  });
});
