import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../src/catalogue/operations.js';
import { RouteTable, uncataloguedTemplate } from '../src/catalogue/route-table.js';

const table = new RouteTable();

describe('the operation catalogue', () => {
  it('gives each operation a unique id', () => {
    expect(new Set(OPERATIONS.map((op) => op.id)).size).toBe(OPERATIONS.length);
  });

  it.each(OPERATIONS.flatMap((op) => op.forms.map((form) => [op.id, form.method, form.template] as const)))('routes %s from each of its forms (%s %s)', (id, method, template) => {
    const path = template.replace('{id}', '42');
    expect(table.match(method, path)?.operation.id).toBe(id);
    expect(table.match(method, `/v1${path.toUpperCase()}/`)?.operation.id).toBe(id);
  });

  it('keeps the scheme the legacy document lists for each endpoint', () => {
    const listed: Readonly<Record<string, 'http' | 'https'>> = {
      'grocery.create': 'http',
      'grocery.list': 'http',
      'grocery.update': 'http',
      'grocery.delete': 'http',
      'trysoons.create': 'http',
      'trysoons.list': 'http',
      'trysoons.delete': 'http',
      'reviews.create': 'https',
      'reviews.get': 'https',
      'reviews.list': 'https',
      'reviews.update': 'https',
      'reviews.delete': 'https',
      'favorites.create': 'https',
      'favorites.list': 'https',
      'favorites.delete': 'https',
      'recipes.search': 'https',
    };
    for (const [id, scheme] of Object.entries(listed)) expect(OPERATIONS.find((op) => op.id === id)?.documentedScheme, id).toBe(scheme);
  });
});

describe('route table', () => {
  const cases: Array<[string, string, string, string]> = [
    ['POST', '/reviews', 'reviews.create', 'canonical'],
    ['GET', '/review/42', 'reviews.get', 'canonical'],
    ['GET', '/reviews', 'reviews.list', 'canonical'],
    ['PUT', '/review/42', 'reviews.update', 'canonical'],
    ['DELETE', '/review/42', 'reviews.delete', 'canonical'],
    ['POST', '/grocerylist', 'grocery.create', 'canonical'],
    ['GET', '/grocerylist', 'grocery.list', 'canonical'],
    ['POST', '/grocerylist/7', 'grocery.update', 'malformed'],
    ['PUT', '/grocerylist/7', 'grocery.update', 'regular'],
    ['DELETE', '/grocerylist7', 'grocery.delete', 'malformed'],
    ['DELETE', '/grocerylist/7', 'grocery.delete', 'regular'],
    ['POST', '/favorites', 'favorites.create', 'canonical'],
    ['GET', '/favorites', 'favorites.list', 'canonical'],
    ['DELETE', '/favorites', 'favorites.delete', 'canonical'],
    ['POST', '/trysoons', 'trysoons.create', 'canonical'],
    ['GET', '/trysoons', 'trysoons.list', 'canonical'],
    ['DELETE', '/trysoons', 'trysoons.delete', 'canonical'],
    ['GET', '/recipes', 'recipes.search', 'canonical'],
  ];

  it.each(cases)('%s %s is %s (%s form)', (method, path, id, kind) => {
    const match = table.match(method, path);
    expect(match?.operation.id).toBe(id);
    expect(match?.form.kind).toBe(kind);
    expect(match?.versionPrefix).toBeNull();
  });

  it.each(cases)('%s %s is also recognised with /v1/, a trailing slash and in upper case', (method, path, id) => {
    for (const variant of [`/v1${path}`, `/V2${path}`, `${path}/`, path.toUpperCase(), `/v1${path.toUpperCase()}/`]) {
      expect(table.match(method, variant)?.operation.id, variant).toBe(id);
    }
    expect(table.match(method, `/v1${path}`)?.versionPrefix).toBe('v1');
  });

  it('reads path ids, percent-decoded, including GUIDs on the malformed delete form', () => {
    expect(table.match('GET', '/review/42')?.pathParams).toEqual({ id: '42' });
    const guid = '6B8CC6F5-1A2B-4C3D-8E9F-0A1B2C3D4E5F';
    expect(table.match('DELETE', `/grocerylist${guid}`)?.pathParams).toEqual({ id: guid });
    expect(table.match('DELETE', '/grocerylist%37')?.pathParams).toEqual({ id: '7' });
  });

  it('matches HEAD as GET', () => {
    expect(table.match('HEAD', '/recipes')?.operation.id).toBe('recipes.search');
  });

  it('recognises nothing it should not', () => {
    // Not /recipe/42: docs/adding-an-operation.md catalogues GET /recipe/{id} in its walkthrough, which runs this test.
    expect(table.match('GET', '/recipe/42/notes')).toBeNull();
    expect(table.match('PATCH', '/reviews')).toBeNull();
    expect(table.match('GET', '/review')).toBeNull();
    expect(table.match('GET', '/review/1/2')).toBeNull();
    expect(table.match('DELETE', '/grocerylist')).toBeNull();
    expect(table.match('GET', '/v1')).toBeNull();
    expect(table.match('GET', '/vx/recipes')).toBeNull();
  });

  it('gives uncatalogued paths a template without raw identifiers', () => {
    expect(uncataloguedTemplate('/recipe/12345')).toBe('/recipe/{n}');
    expect(uncataloguedTemplate('/Recipe/6B8CC6F5-1A2B-4C3D-8E9F-0A1B2C3D4E5F/x')).toBe('/recipe/{guid}/x');
  });
});
