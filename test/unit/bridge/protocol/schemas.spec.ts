import { describe, expect, it } from 'vitest';
import { describeIssues } from '../../../../bridge/inbound/describe-issues.js';
import {
  ContactSchema,
  EmptyParamsSchema,
  HostCommandSchema,
  SendMessageSchema,
  WidgetMessageSchema,
} from '../../../../bridge/protocol/schemas.js';

const issuesOf = (result: { success: boolean; error?: unknown }) =>
  result.success ? 'accepted' : describeIssues(result.error as Parameters<typeof describeIssues>[0]);

describe('host command envelope', () => {
  it('accepts {id, method} with or without params, and keeps params open for the command to check', () => {
    expect(HostCommandSchema.safeParse({ id: 'c1', method: 'init' }).success).toBe(true);
    const parsed = HostCommandSchema.safeParse({ id: 'c1', method: 'sendMessage', params: { anything: 1 } });
    expect(parsed.success && parsed.data.params).toEqual({ anything: 1 });
  });

  it('refuses ids and command names that are empty or over 128 characters, naming the rule', () => {
    expect(issuesOf(HostCommandSchema.safeParse({ id: '', method: 'init' }))).toBe('id: must be 1 to 128 characters');
    expect(issuesOf(HostCommandSchema.safeParse({ id: 'c1', method: 'x'.repeat(129) }))).toBe(
      'method: must be 1 to 128 characters',
    );
    expect(HostCommandSchema.safeParse({ id: 'x'.repeat(128), method: 'init' }).success).toBe(true);
  });

  it('says what was expected where, never the value itself', () => {
    const described = issuesOf(HostCommandSchema.safeParse({ id: 7, method: 'secret-value', params: 'wt_secret' }));
    expect(described).toBe('id: expected string; params: expected object');
    expect(described).not.toContain('wt_secret');
  });
});

describe('command params', () => {
  it('accepts an empty contact and one with name, e-mail and identifier; shape only, not the rules', () => {
    expect(ContactSchema.safeParse({}).success).toBe(true);
    // An invalid e-mail is the service's rule (protocol/service-rules.ts), not the shape's.
    expect(ContactSchema.safeParse({ name: 'Ada', email: 'not-an-email', identifier: 'u1' }).success).toBe(true);
    expect(issuesOf(ContactSchema.safeParse({ email: 5 }))).toBe('email: expected string');
  });

  it('types a message: content, attachments with a 1-255 character name, and a bounded messageId', () => {
    expect(
      SendMessageSchema.safeParse({
        content: 'Hi',
        email: 'ada@example.com',
        messageId: 'm-1',
        attachments: [{ name: 'a.png', type: 'image/png', data: 'AAAA' }],
      }).success,
    ).toBe(true);
    expect(issuesOf(SendMessageSchema.safeParse({ attachments: [{ name: '', type: 'image/png' }] }))).toBe(
      'attachments.0.name: must be 1 to 255 characters',
    );
    expect(issuesOf(SendMessageSchema.safeParse({ messageId: 'x'.repeat(129) }))).toBe(
      'messageId: must be 1 to 128 characters',
    );
    expect(issuesOf(SendMessageSchema.safeParse({ attachments: [{ name: 'a', type: 'text/plain', size: '1' }] }))).toBe(
      'attachments.0.size: expected number',
    );
  });

  it('takes commands without params as an empty object', () => {
    expect(EmptyParamsSchema.safeParse({}).success).toBe(true);
  });
});

describe('widget messages', () => {
  it('need an event name and keep every other field', () => {
    const parsed = WidgetMessageSchema.safeParse({ event: 'loaded', unreadCount: 2 });
    expect(parsed.success && parsed.data).toEqual({ event: 'loaded', unreadCount: 2 });
    expect(issuesOf(WidgetMessageSchema.safeParse({ unreadCount: 2 }))).toBe('event: expected string');
  });
});
