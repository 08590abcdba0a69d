/** The next action for an operation held by a gate, by the gate that holds it. */
const BY_GATE: Readonly<Record<string, string>> = {
  shadowAgreement: 'Read the differing fields and their example pairs, then fix the mapping or add the field to shadow.ignore (a config change starts the evidence again).',
  errorRate: "Look at api2's 5xx and fallbacks for this operation (the usage log's error codes), fix the cause, and let the step run again.",
  latencyP95: "Look at api2's latency for this operation (or raise latencyP95.graceMs if the difference is expected).",
  breaker: 'The api2 circuit breaker opened: find why api2 failed (its breaker lines in the usage log) before going on.',
};

export function nextForHold(operation: string, gates: readonly string[]): string {
  const first = gates.find((g) => BY_GATE[g] !== undefined);
  return first ? BY_GATE[first]! : `Look at the failed gates of ${operation} in the rollout history.`;
}
