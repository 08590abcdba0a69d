/**
 * Objects the api2 path builds on every call keep one V8 hidden class: the headers of each api2
 * call (the caller's extra headers, then accept and the api key), and the legacy Poster of each
 * result. Built as a spread with more members, each got a class of its own, which the scavenger
 * promoted: the api2-mapped search promoted 321 B per request before, 172 after (bench:ab).
 */
import { describe, expect, it } from 'vitest';
import { legacyPosterOf } from '../mappings/recipe-info.js';
import { openApi2Exchange } from '../src/api2/port.js';
import type { UpstreamClient, UpstreamRequest } from '../src/upstream/types.js';
import { hiddenClassesOtherThan } from './support/hidden-class.js';

describe('objects of the api2 path built per call', () => {
  it('the headers of each api2 call: same members, one hidden class', async () => {
    const sent: Array<Record<string, string>> = [];
    const upstream: UpstreamClient = {
      name: 'api2',
      request: (req: UpstreamRequest) => {
        sent.push(req.headers as Record<string, string>);
        return Promise.resolve({ status: 200, headers: {}, body: new TextEncoder().encode('{"ResultCount":0}') });
      },
      close: async () => {},
    };
    for (let i = 0; i < 100; i++) {
      const exchange = openApi2Exchange(upstream, { apiKey: `key-${i}`, authorization: undefined }, 1000, undefined, { 'x-forwarded-for': `10.0.0.${i}` });
      await exchange.port({ method: 'GET', path: '/recipes', query: { pg: 1 } });
    }
    expect(sent[7]).toEqual({ 'x-forwarded-for': '10.0.0.7', accept: 'application/json', 'x-bigoven-api-key': 'key-7' });
    expect(hiddenClassesOtherThan(sent[0]!, sent.slice(1))).toBe(0);
  });

  it('the legacy Poster of each known poster: every member, one hidden class', () => {
    const posters = Array.from({ length: 100 }, (_, i) => legacyPosterOf({ UserID: i + 1, UserName: `cook${i}`, PhotoUrl: `https://img.example/u/${i}.jpg` }));
    expect(Object.keys(posters[0]!)).toEqual(['UserID', 'UserName', 'ImageURL48', 'PhotoUrl', 'IsPremium', 'IsKitchenHelper', 'PremiumExpiryDate', 'MemberSince', 'IsUsingBillingProvider']);
    expect(hiddenClassesOtherThan(posters[0]!, posters.slice(1))).toBe(0);
  });
});
