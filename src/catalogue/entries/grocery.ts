/** The grocery list operations (legacy document part 4.2). */
import { groceryCreateMapping, groceryDeleteMapping, groceryListMapping, groceryUpdateMapping } from '../../../mappings/grocery.js';
import * as rules from '../../legacy/param-rules.js';
import { GroceryItemSchema, GroceryListSchema } from '../../legacy/records.js';
import { entry, param } from '../entry.js';
import type { ParamSpec } from '../entry.js';

const groceryFields: readonly ParamSpec[] = [
  // DECISION: quantity ("value, type not stated") is a display text such as "1 lb".
  param('quantity', 'input', true, rules.text(100)),
  param('name', 'input', true, rules.text(200)),
  param('notes', 'input', false, rules.optionalText(1000)),
  param('department', 'input', false, rules.optionalText(100)),
];

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
  }),
] as const;
