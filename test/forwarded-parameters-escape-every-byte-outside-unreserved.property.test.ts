/**
 * What the gateway forwards and keys of a parameter value (src/request/pairs.ts
 * encodeFormComponent): every byte outside `A-Za-z0-9-_.~` percent-escaped in upper-case hex,
 * so the legacy backend decodes exactly the value the gateway checked, whatever text it is.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeFormComponent, encodeFormComponent } from '../src/request/pairs.js';

const ESCAPED = /^(?:[A-Za-z0-9\-_.~]|%[0-9A-F]{2})*$/;

describe('a forwarded parameter value', () => {
  it('escapes every byte outside the unreserved set, and decodes back to the value checked', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom("it's", '(a)*!', 'a b+c', 'x~y.z_-', '')), (text) => {
        const sent = encodeFormComponent(text);
        expect(sent).toMatch(ESCAPED);
        expect(decodeFormComponent(sent)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('is sent as it is when it holds only unreserved characters', () => {
    expect(encodeFormComponent('Soup-2_a.b~c')).toBe('Soup-2_a.b~c');
    expect(encodeFormComponent("it's (hot)!*")).toBe('it%27s%20%28hot%29%21%2A');
  });
});
