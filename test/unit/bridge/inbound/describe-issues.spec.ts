/**
 * The account of why input failed its schema: where and what was expected, never the value. It
 * reads zod's issues and the generated validators' alike (test/fuzz compares the two at length).
 */
import { describe, expect, it } from 'vitest';
import { describeIssues, type SchemaIssue } from '../../../../bridge/inbound/describe-issues.js';
import { HostCommandSchema, SendMessageSchema } from '../../../../bridge/protocol/schemas.js';

const issue = (fields: Partial<SchemaIssue>): SchemaIssue => ({ code: 'custom', path: [], message: '', ...fields });
const describeResult = (result: { success: boolean; error?: unknown }) =>
  result.success ? 'accepted' : describeIssues(result.error as Parameters<typeof describeIssues>[0]);

describe("describeIssues on zod's issues", () => {
  it('lists at most three issues, the root as (root)', () => {
    const many = SendMessageSchema.safeParse({ content: 1, name: 2, email: 3, identifier: 4 });
    expect(describeResult(many).split('; ')).toHaveLength(3);
    expect(describeResult(HostCommandSchema.safeParse('text'))).toBe('(root): expected object');
  });

  it('names a nested field by its dotted path, array indexes included, and leaves the value out', () => {
    const secret = 'sk_live_do_not_echo_me';
    const result = SendMessageSchema.safeParse({ content: 'hi', attachments: [{ name: secret, type: 'x', data: 5 }] });
    const text = describeResult(result);
    expect(text).toMatch(/^attachments\.0\.data: /);
    expect(text).not.toContain(secret);
  });
});

describe('describeIssues on any issue list', () => {
  it('says what type was expected for invalid_type, and the message for a custom issue', () => {
    expect(
      describeIssues({
        issues: [
          issue({ code: 'invalid_type', path: ['id'], expected: 'string', message: 'Invalid input' }),
          issue({ code: 'custom', path: ['method'], message: 'must be 1 to 128 characters' }),
        ],
      }),
    ).toBe('id: expected string; method: must be 1 to 128 characters');
  });

  it("words any other code from the code itself, not from the issue's message (which may quote the value)", () => {
    const text = describeIssues({
      issues: [issue({ code: 'unrecognized_keys', path: ['params'], message: 'Unrecognized key: "wt_secret_value"' })],
    });
    expect(text).toBe('params: unrecognized keys');
  });

  it('joins a path of several keys and numbers with dots', () => {
    expect(describeIssues({ issues: [issue({ code: 'too_big', path: ['params', 'attachments', 5] })] })).toBe(
      'params.attachments.5: too big',
    );
  });

  it('lists only the first three of many issues, in order', () => {
    const issues = ['a', 'b', 'c', 'd', 'e'].map((key) => issue({ code: 'invalid_value', path: [key] }));
    expect(describeIssues({ issues })).toBe('a: invalid value; b: invalid value; c: invalid value');
  });
});
