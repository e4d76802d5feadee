import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../src-shared/domain/chat.js';
import { lastAssistantAnswerId } from './lastAssistantAnswer.js';

function conversation(...entries: [ChatMessage['role'], string][]) {
  const messages = entries.map(([role, text], i): ChatMessage => ({
    id: `m${i}`,
    conversationId: 'c',
    seq: i,
    role,
    text,
    createdAt: 'x',
  }));
  return [messages.map((m) => m.id), Object.fromEntries(messages.map((m) => [m.id, m]))] as const;
}

describe('lastAssistantAnswerId', () => {
  it('skips tool cards, notices and text-less tool turns', () => {
    const [ids, byId] = conversation(
      ['user', 'plan it'],
      ['assistant', 'Here is the plan'],
      ['assistant', ''],
      ['tool', ''],
      ['notice', 'Loaded'],
    );
    assert.equal(lastAssistantAnswerId(ids, byId), 'm1');
  });

  it('is null when the person has spoken since, or nothing answered yet', () => {
    assert.equal(lastAssistantAnswerId(...conversation(['assistant', 'old plan'], ['user', 'and now?'])), null);
    assert.equal(lastAssistantAnswerId(...conversation(['user', 'hi'], ['assistant', '   '])), null);
    assert.equal(lastAssistantAnswerId([], {}), null);
  });
});
