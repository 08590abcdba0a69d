/**
 * The usage line's `clientProgram` is a User-Agent's family (src/http/client-program.ts, a
 * DECISION): the first product's name, the last one's behind the browsers' `Mozilla`; never the
 * whole header.
 */
import { describe, expect, it } from 'vitest';
import { MAX_PROGRAM_LENGTH, clientProgramOf, programFamily } from '../src/http/client-program.js';
import { CLIENT_PROGRAMS as PROGRAMS } from '../src/sandbox/demo/population.js';

describe('a client program family', () => {
  it('is the product name of the first product, the last one behind Mozilla', () => {
    expect(programFamily('RecipeBox/4.2.1 (iPhone; iOS 12.4; Scale/2.00)')).toBe('RecipeBox');
    expect(programFamily('CookingPal/2.8.0 (Linux; U; Android 9; SM-G960F)')).toBe('CookingPal');
    expect(programFamily('MealPlanner.NET/1.3 (Windows NT 6.1; .NET CLR 4.0.30319)')).toBe('MealPlanner.NET');
    expect(programFamily('Mozilla/5.0 (Windows NT 10.0; Win64; x64) RecipeWidget/0.9')).toBe('RecipeWidget');
    expect(programFamily('Mozilla/5.0')).toBe('Mozilla');
    expect(programFamily('curl/8.5.0')).toBe('curl');
  });

  it('gives each of the demo population programs a family of its own', () => {
    const families = PROGRAMS.map((program) => programFamily(program.userAgent));
    expect(new Set(families).size).toBe(PROGRAMS.length);
  });

  it('never carries more of the header than a product name, cut to its bound', () => {
    const secret = 'sk_live_0123456789abcdef';
    expect(clientProgramOf(`MyApp/1.0 token=${secret}`)).toBe('MyApp');
    expect(clientProgramOf(`(${secret}) Tool/2`)).toBe('Tool');
    expect(clientProgramOf('A'.repeat(5000))).toBe('A'.repeat(MAX_PROGRAM_LENGTH));
    expect(clientProgramOf('"quoted"/1')).toBeUndefined();
    expect(clientProgramOf(undefined)).toBeUndefined();
    expect(clientProgramOf('')).toBeUndefined();
  });
});
