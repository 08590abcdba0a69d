/** The part of on-exit-leak-free (pino's own exit hook: weak references, no listener per caller) the usage log uses. */
declare module 'on-exit-leak-free' {
  /** Calls `fn(obj, event)` on process `exit` and `beforeExit` while `obj` lives, in registration order. */
  export function register<T extends object>(obj: T, fn: (obj: T, event: 'exit' | 'beforeExit') => void): void;
  export function unregister(obj: object): void;
  const onExit: { register: typeof register; unregister: typeof unregister };
  export default onExit;
}
