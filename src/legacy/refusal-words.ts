/**
 * How the legacy backend words the refusals an api2 mapping can meet, in one place: the sandbox
 * legacy backend answers them, and api2 mode answers them where api2 words its own otherwise
 * (src/api2/legacy-answer.ts, mappings/). A client that shows the message sees no change of backend.
 */
export const LEGACY_REFUSALS = {
  unknownKey: 'Authentication failed: unknown api_key.',
  /** `ref`: the id as the client sent it (the integer ItemID or the GUID). */
  groceryItemNotFound: (ref: string) => `Grocery list item ${ref} was not found.`,
} as const;
