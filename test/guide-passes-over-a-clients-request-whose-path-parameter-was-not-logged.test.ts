/**
 * Regression (found reading the guide's code): a client's most frequent `params` may lack a path
 * parameter (a usage line leaves out a value holding one of the request's secrets), and the guide
 * then took the operation for one with no api2 equivalent. It goes on to the client's next request,
 * else to the catalogue's example.
 */
import { describe, expect, it } from 'vitest';
import { replacementFor } from '../src/report/guide/client-request.js';
import { SANDBOX_BEHAVIOUR } from '../src/sandbox/behaviour.js';

const example = SANDBOX_BEHAVIOUR['reviews.get'].example;

describe("a guide's api2 call for reviews.get (GET /review/{id})", () => {
  it("skips the most frequent params without the id for the next one, the client's own", async () => {
    const replacement = await replacementFor('reviews.get', ['', 'id=31'], example);
    expect(replacement?.example).toMatchObject({ own: true, legacy: 'GET /review/31' });
  });

  it('falls back to the catalogue example when none of them has the id', async () => {
    const replacement = await replacementFor('reviews.get', [''], example);
    expect(replacement?.example).toMatchObject({ own: false, legacy: `GET ${example.target}` });
  });
});
