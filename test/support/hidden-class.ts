/**
 * V8's own answer to "do these objects share one hidden class?" (%HaveSameMap), for the tests of
 * objects built once per request: a new hidden class per request is promoted by the scavenger
 * (docs/benchmarks-anchors.md, "Promotion"). The natives syntax is allowed only while this
 * function is compiled.
 */
import { setFlagsFromString } from 'node:v8';
import { runInThisContext } from 'node:vm';

setFlagsFromString('--allow-natives-syntax');
const same = runInThisContext('(a, b) => %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
same({}, {}); // compiled now, while the syntax is allowed
setFlagsFromString('--no-allow-natives-syntax');

/** How many of `others` do not share `first`'s hidden class. */
export function hiddenClassesOtherThan(first: object, others: readonly object[]): number {
  return others.filter((other) => !same(first, other)).length;
}
