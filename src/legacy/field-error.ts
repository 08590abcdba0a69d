/** A broken parameter of a legacy request: the field and the rule it breaks (the legacy error's Message names both). */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}
