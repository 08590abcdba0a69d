/** The grocery list operations (legacy document part 4.2). */
import { groceryCreateMapping, groceryDeleteMapping, groceryListMapping, groceryUpdateMapping } from '../../../mappings/grocery.js';
import * as rules from '../../legacy/param-rules.js';
import { GroceryItemSchema, GroceryListSchema } from '../../legacy/records.js';
import { done, requireUser } from '../../dataset/action.js';
import type { Values } from '../../dataset/action.js';
import type { GroceryInput } from '../../dataset/legacy-store.js';
import { entry, param } from '../entry.js';
import type { ParamSpec } from '../entry.js';

const groceryFields: readonly ParamSpec[] = [
  // DECISION: quantity ("value, type not stated") is a display text such as "1 lb".
  param('quantity', 'input', true, rules.text(100)),
  param('name', 'input', true, rules.text(200)),
  param('notes', 'input', false, rules.optionalText(1000)),
  param('department', 'input', false, rules.optionalText(100)),
];

/** The sandbox's grocery input from the validated fields. */
function groceryInput(v: Values): GroceryInput {
  return { quantity: v.text('quantity'), name: v.text('name'), notes: v.optionalText('notes'), department: v.optionalText('department') };
}

export const GROCERY_OPERATIONS = [
  entry({
    id: 'grocery.create',
    resource: 'grocery',
    summary: 'Add a grocery list item for the authenticated user',
    documentedScheme: 'http',
    forms: [{ method: 'POST', template: '/grocerylist', kind: 'canonical' }],
    params: groceryFields,
    answer: { status: 200, xmlRoot: 'Item', record: GroceryItemSchema },
    auth: 'user',
    safe: false,
    api2: { mapping: groceryCreateMapping },
    sandbox: {
      act: (s, v, u) => done(s.createGrocery(requireUser(u).userId, groceryInput(v))),
      example: { method: 'POST', target: '/grocerylist', body: { quantity: '2 cups', name: 'flour' } },
    },
  }),
  entry({
    id: 'grocery.list',
    resource: 'grocery',
    summary: 'Read all grocery list items of the authenticated user',
    documentedScheme: 'http',
    forms: [{ method: 'GET', template: '/grocerylist', kind: 'canonical' }],
    params: [],
    answer: { status: 200, xmlRoot: 'GroceryList', record: GroceryListSchema },
    auth: 'user',
    safe: true,
    api2: { mapping: groceryListMapping },
    sandbox: {
      act: (s, _v, u) => done(s.listGrocery(requireUser(u).userId)),
      example: { method: 'GET', target: '/grocerylist' },
    },
  }),
  entry({
    id: 'grocery.update',
    resource: 'grocery',
    summary: 'Update a grocery list item of the authenticated user',
    documentedScheme: 'http',
    forms: [
      { method: 'POST', template: '/grocerylist/{id}', kind: 'malformed' },
      { method: 'PUT', template: '/grocerylist/{id}', kind: 'regular' },
    ],
    params: [param('id', 'path', true, rules.groceryItemId), ...groceryFields],
    answer: { status: 200, xmlRoot: 'Item', record: GroceryItemSchema },
    auth: 'user',
    safe: false,
    api2: { mapping: groceryUpdateMapping },
    sandbox: {
      act: (s, v, u) => s.updateGrocery(requireUser(u).userId, v.text('id'), groceryInput(v)),
      example: { method: 'PUT', target: '/grocerylist/308E515A-C877-48DF-882C-000000000001', body: { quantity: '3 cups', name: 'rye flour' } },
    },
  }),
  entry({
    id: 'grocery.delete',
    resource: 'grocery',
    summary: 'Delete a grocery list item of the authenticated user',
    documentedScheme: 'http',
    forms: [
      { method: 'DELETE', template: '/grocerylist{id}', kind: 'malformed' },
      { method: 'DELETE', template: '/grocerylist/{id}', kind: 'regular' },
    ],
    params: [param('id', 'path', true, rules.groceryItemId)],
    answer: { status: 204 },
    auth: 'user',
    safe: false,
    api2: { mapping: groceryDeleteMapping },
    sandbox: {
      act: (s, v, u) => s.deleteGrocery(requireUser(u).userId, v.text('id')),
      example: { method: 'DELETE', target: '/grocerylist/308E515A-C877-48DF-882C-000000000001' },
    },
  }),
] as const;
