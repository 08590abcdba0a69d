/**
 * Grocery list (api2-notes, grocery list [C]). api2 addresses items by GUID; a legacy id may be
 * the integer ItemID or the GUID, so an integer is resolved through `GET /grocerylist` first.
 *   list    GET /grocerylist
 *   create  POST /grocerylist/item → ShoppingListLine
 *   update  [GET /grocerylist] → PUT /grocerylist/item/{guid} (answers `{}`) → GET /grocerylist
 *   delete  [GET /grocerylist] → DELETE /grocerylist/item/{guid}
 */
import type { GroceryItem as LegacyGroceryItem } from '../src/legacy/records.js';
import { GroceryList, ShoppingListLine, SystemObject } from './api2-schemas.js';
import type { GroceryItem, ShoppingListLine as Line } from './api2-schemas.js';
import { expectOk } from './api2-call.js';
import { Api2StatusError, MappingRefusal, parseApi2 } from './errors.js';
import { LEGACY_REFUSALS } from '../src/legacy/refusal-words.js';
import { legacyDateOf } from './recipe-info.js';
import type { Api2Port, LegacyCall, Loss, OperationMapping } from './types.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** api2 Grocery.Item → legacy grocery item: the same field names (the legacy sample). Pure. */
export function legacyItemOf(item: GroceryItem): LegacyGroceryItem {
  return {
    ItemID: item.ItemID,
    GUID: item.GUID,
    RecipeID: item.RecipeID ?? null,
    Name: item.Name ?? '',
    Notes: item.Notes ?? '',
    DisplayQuantity: item.DisplayQuantity ?? '',
    Department: item.Department ?? '',
    CreationDate: legacyDateOf(item.CreationDate),
    IsChecked: item.IsChecked ?? null,
    LocalStatus: item.LocalStatus ?? 'UNMODIFIED',
    LastModified: legacyDateOf(item.LastModified),
    BigOvenObject: null,
    ThirdPartyURL: item.ThirdPartyURL ?? null,
  };
}

/** api2 ShoppingListLine (other names than Item, api2-notes [C]) → legacy grocery item. Pure. */
export function legacyItemOfLine(line: Line): LegacyGroceryItem {
  return {
    ItemID: line.ShoppingListLineID,
    GUID: line.GUID,
    RecipeID: line.RecipeID ?? null,
    Name: line.ItemName ?? '',
    Notes: line.Notes ?? '',
    DisplayQuantity: line.TextAmt ?? '',
    Department: line.Dept ?? '',
    CreationDate: legacyDateOf(line.DateAdded),
    IsChecked: line.IsChecked ?? null,
    LocalStatus: 'UNMODIFIED',
    LastModified: legacyDateOf(line.LastModified),
    BigOvenObject: null,
    ThirdPartyURL: line.ThirdPartyURL ?? null,
  };
}

/** Legacy grocery fields → api2 item body. Absent optional fields are sent empty (legacy updates replace every field). */
export function api2ItemBody(values: LegacyCall['values']): Record<string, unknown> {
  return {
    name: values['name'],
    quantity: values['quantity'],
    notes: (values['notes'] as string | undefined) ?? '',
    department: (values['department'] as string | undefined) ?? '',
  };
}

async function readList(api2: Api2Port): Promise<GroceryItem[]> {
  const reply = await expectOk(api2, { method: 'GET', path: '/grocerylist' });
  return parseApi2(GroceryList, reply.body, 'GET /grocerylist').Items ?? [];
}

/** The GUID of a legacy item id (ItemID or GUID), through the caller's list when it is an ItemID. */
async function resolveGuid(api2: Api2Port, id: string): Promise<string> {
  if (GUID.test(id)) return id;
  const item = (await readList(api2)).find((entry) => entry.ItemID === Number(id));
  if (!item) throw new MappingRefusal(404, LEGACY_REFUSALS.groceryItemNotFound(id));
  return item.GUID;
}

/** api2's 404 of an item, answered in legacy's words: the item named as the client named it. */
async function notFoundAs<T>(id: string, reply: Promise<T>): Promise<T> {
  try {
    return await reply;
  } catch (error) {
    if (error instanceof Api2StatusError && error.status === 404) throw new MappingRefusal(404, LEGACY_REFUSALS.groceryItemNotFound(id));
    throw error;
  }
}

const LOCAL_STATUS_LOSS: Loss = { field: 'LocalStatus', fill: 'UNMODIFIED', why: 'api2 ShoppingListLine has no LocalStatus' };
const RESOLVE = 'an integer ItemID costs one more call (GET /grocerylist) to find the GUID api2 addresses items by';

export const groceryListMapping: OperationMapping = {
  api2Calls: ['GET /grocerylist'],
  losses: [],
  differences: [],
  inferences: [],
  async run(_call, api2) {
    return { status: 200, body: { Items: (await readList(api2)).map(legacyItemOf) } };
  },
};

export const groceryCreateMapping: OperationMapping = {
  api2Calls: ['POST /grocerylist/item'],
  losses: [LOCAL_STATUS_LOSS],
  differences: [],
  inferences: [],
  async run(call, api2) {
    const reply = await expectOk(api2, { method: 'POST', path: '/grocerylist/item', body: api2ItemBody(call.values) });
    return { status: 200, body: legacyItemOfLine(parseApi2(ShoppingListLine, reply.body, 'POST /grocerylist/item')) };
  },
};

export const groceryUpdateMapping: OperationMapping = {
  api2Calls: ['GET /grocerylist (integer id only)', 'PUT /grocerylist/item/{guid}', 'GET /grocerylist'],
  losses: [],
  differences: [RESOLVE, 'api2 answers the update with `{}`, so the item is read back with GET /grocerylist'],
  inferences: [],
  async run(call, api2) {
    const guid = await resolveGuid(api2, call.values['id'] as string);
    const write = await notFoundAs(call.values['id'] as string, expectOk(api2, { method: 'PUT', path: `/grocerylist/item/${encodeURIComponent(guid)}`, body: { guid, ...api2ItemBody(call.values) } }));
    parseApi2(SystemObject, write.body, 'PUT /grocerylist/item/{guid}');
    const item = (await readList(api2)).find((entry) => entry.GUID.toLowerCase() === guid.toLowerCase());
    if (!item) throw new MappingRefusal(404, `Grocery item ${guid} is not on the list after its update.`);
    return { status: 200, body: legacyItemOf(item) };
  },
};

export const groceryDeleteMapping: OperationMapping = {
  api2Calls: ['GET /grocerylist (integer id only)', 'DELETE /grocerylist/item/{guid}'],
  losses: [],
  differences: [RESOLVE],
  inferences: [],
  async run(call, api2) {
    const guid = await resolveGuid(api2, call.values['id'] as string);
    const reply = await notFoundAs(call.values['id'] as string, expectOk(api2, { method: 'DELETE', path: `/grocerylist/item/${encodeURIComponent(guid)}` }));
    parseApi2(SystemObject, reply.body, 'DELETE /grocerylist/item/{guid}');
    return { status: 204, body: null };
  },
};
