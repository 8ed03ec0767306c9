import type { z } from 'zod';

/**
 * A schema failure as one sentence with the path it concerns (`sides[0].combatants: ...`):
 * what every ruleset says when a setup or a command does not parse.
 */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const path = issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}
