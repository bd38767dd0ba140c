/**
 * A readable account of why input failed its schema: the path and what was expected, never the
 * value. Apart from protocol/schemas.ts so that it reads zod's issues and the generated validators'
 * (scripts/generate-validators.mjs, which the injected bundle carries instead of zod) alike.
 */

/** What is read of an issue: the fields zod's issues and the generated validators' issues share. */
export interface SchemaIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  /** Read for `custom` issues, which always carry one (the generated validators' others carry none). */
  readonly message?: string;
  readonly expected?: string;
}

export function describeIssues(error: { readonly issues: readonly SchemaIssue[] }): string {
  // No schema has an empty key, so only the root's path joins to ''.
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${describeIssue(issue)}`)
    .join('; ');
}

function describeIssue(issue: SchemaIssue): string {
  if (issue.code === 'invalid_type') return `expected ${issue.expected}`;
  if (issue.code === 'custom') return issue.message as string;
  return issue.code.replace(/_/g, ' ');
}
