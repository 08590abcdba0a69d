/**
 * DECISION: the legacy XML element layout (the document is silent; the legacy server was ASP.NET
 * Web API, whose DataContract serializer this imitates). Used by the sandbox legacy backend and by
 * every gateway answer that is rendered rather than passed through, so both agree to the byte.
 *
 * - The root element is the record's type name (RecipeSearchResult, Review, ArrayOfReview, ...),
 *   carrying `xmlns:i="http://www.w3.org/2001/XMLSchema-instance"`.
 * - Each property is a child element with the property's name, in the record's key order.
 * - An array property holds one child element per entry, named by ARRAY_ITEM_NAMES
 *   (Results → RecipeInfo, Items → Item, Ingredients → Ingredient); a top-level array's entries
 *   are named by the caller.
 * - null is an empty element with `i:nil="true"`; booleans are `true`/`false`; numbers in .NET's
 *   round-trip format, as in the JSON (legacy-json.ts; XmlConvert writes doubles the same way).
 * - Text is escaped (&, <, >, ", ') and characters XML 1.0 cannot carry are dropped.
 * - A declaration line `<?xml version="1.0" encoding="utf-8"?>` starts the document.
 */

import { legacyJsonNumber } from './legacy-json.js';

const ARRAY_ITEM_NAMES: Readonly<Record<string, string>> = {
  Results: 'RecipeInfo',
  Items: 'Item',
  Reviews: 'Review',
  Ingredients: 'Ingredient',
};

const XSI = 'xmlns:i="http://www.w3.org/2001/XMLSchema-instance"';

export function toXml(rootName: string, value: unknown, arrayItemName = 'Item'): string {
  const parts: string[] = ['<?xml version="1.0" encoding="utf-8"?>'];
  if (Array.isArray(value)) {
    parts.push(`<${rootName} ${XSI}>`);
    for (const entry of value) writeElement(parts, arrayItemName, entry);
    parts.push(`</${rootName}>`);
  } else if (value !== null && typeof value === 'object') {
    parts.push(`<${rootName} ${XSI}>`);
    writeProperties(parts, value as Record<string, unknown>);
    parts.push(`</${rootName}>`);
  } else {
    writeElement(parts, rootName, value);
  }
  return parts.join('');
}

function writeProperties(parts: string[], record: Record<string, unknown>): void {
  for (const [key, child] of Object.entries(record)) {
    if (child === undefined) continue;
    if (Array.isArray(child)) {
      parts.push(`<${key}>`);
      const itemName = ARRAY_ITEM_NAMES[key] ?? 'Item';
      for (const entry of child) writeElement(parts, itemName, entry);
      parts.push(`</${key}>`);
    } else {
      writeElement(parts, key, child);
    }
  }
}

function writeElement(parts: string[], name: string, value: unknown): void {
  if (value === null || value === undefined) {
    parts.push(`<${name} i:nil="true" />`);
  } else if (Array.isArray(value)) {
    parts.push(`<${name}>`);
    for (const entry of value) writeElement(parts, 'Item', entry);
    parts.push(`</${name}>`);
  } else if (typeof value === 'object') {
    parts.push(`<${name}>`);
    writeProperties(parts, value as Record<string, unknown>);
    parts.push(`</${name}>`);
  } else if (typeof value === 'number') {
    parts.push(`<${name}>${xmlNumber(value)}</${name}>`);
  } else {
    parts.push(`<${name}>${escapeXml(String(value))}</${name}>`);
  }
}

/** XmlConvert.ToString(double): the round-trip format; NaN and the infinities as XML Schema writes them. */
function xmlNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'INF' : '-INF';
  return legacyJsonNumber(value);
}

// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
