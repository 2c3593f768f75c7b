import { LIMITS, type FieldIssues } from '../../../ingest/contract/schemas.ts';
import type { ValidationMessages } from '../../forms/validation-messages.ts';
import { format } from './api.ts';

const MAX_BY_FIELD: Record<string, number> = {
  name: LIMITS.name,
  firstName: LIMITS.name,
  lastName: LIMITS.name,
  email: LIMITS.email,
  phone: LIMITS.phone,
  companyName: LIMITS.companyName,
  message: LIMITS.message,
};

/** The message to show under a field for its issue, or undefined when it has none. */
export function messageFor(field: string, issues: FieldIssues, messages: ValidationMessages): string | undefined {
  const code = issues[field];
  return code ? format(messages[code], { max: MAX_BY_FIELD[field] ?? '' }) : undefined;
}

/** Moves focus to the first field (in form order) that has an issue, so keyboard users land on it. */
export function focusFirstInvalid(form: HTMLFormElement | null, issues: FieldIssues): void {
  const first = [...(form?.elements ?? [])].find((el) => (el as HTMLInputElement).name in issues) as HTMLElement | undefined;
  first?.focus();
}

/** ARIA attributes tying a control to its error message. */
export function errorAttributes(id: string, error: string | undefined) {
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': `${id}-error` } as const;
}

/**
 * `issues` without the issue of `field`, or `issues` itself when it has none (so a signal holding
 * it does not notify).
 *
 * @example withoutIssue({ name: 'required', email: 'email' }, 'email') // { name: 'required' }
 */
export function withoutIssue(issues: FieldIssues, field: string): FieldIssues {
  return field in issues ? Object.fromEntries(Object.entries(issues).filter(([key]) => key !== field)) : issues;
}
