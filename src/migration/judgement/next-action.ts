/** The next action for an operation held by a gate, by the gate that holds it. */
const BY_GATE: Readonly<Record<string, string>> = {
  shadowAgreement: 'Read the differing fields and their example pairs, then fix the mapping or add the field to shadow.ignore (a config change starts the evidence again).',
  errorRate: "api2 is failing (5xx, timeouts, refused connections), which is not the mapping differing: look at api2's health and its errors for this operation (the usage log's error codes). It moves on by itself once api2 answers again: each failure starts the step's evidence afresh.",
  latencyP95: "Look at api2's latency for this operation (or raise latencyP95.graceMs if the difference is expected).",
  breaker: 'The api2 circuit breaker opened: find why api2 failed (its breaker lines in the usage log) before going on.',
};

export function nextForHold(operation: string, gates: readonly string[]): string {
  const first = gates.find((g) => BY_GATE[g] !== undefined);
  return first ? BY_GATE[first]! : `Look at the failed gates of ${operation} in the rollout history.`;
}

/** Why a held operation is held, by its failed gates: api2 unavailable (the error-rate gate), the mapping differing (agreement), or another gate. */
export function causeOfHold(gates: readonly string[]): 'api2-unavailable' | 'mapping' | 'other' {
  if (gates.includes('errorRate')) return 'api2-unavailable';
  return gates.includes('shadowAgreement') ? 'mapping' : 'other';
}
