import test from 'ava';
import { teamFor, type HandoffFacts } from './routing.js';

const facts = (customerText: string, more: Partial<HandoffFacts> = {}): HandoffFacts => ({
  channel: 'widget',
  operatorId: 'op-1',
  handoffBy: 'visitor',
  customerText,
  ...more,
});

const routing = {
  rules: [
    { teamId: 'billing', keywords: ['refund', 'credit card', 'Rückerstattung'] },
    { teamId: 'whatsapp', channel: 'messaging' },
    { teamId: 'escalations', handoffBy: 'ai', operatorId: 'op-1' },
  ],
  defaultTeamId: 'general',
};

test('the first rule whose every condition holds decides; else the default team', (t) => {
  t.is(teamFor(routing, facts('I want a REFUND, please')), 'billing');
  t.is(teamFor(routing, facts('my Credit  Card was charged twice')), 'billing', 'a phrase, whatever the spacing and case');
  t.is(teamFor(routing, facts('Ich möchte eine Rückerstattung')), 'billing', 'words beyond ASCII');
  t.is(teamFor(routing, facts('refund', { channel: 'messaging' })), 'billing', 'rules are tried in order');
  t.is(teamFor(routing, facts('hello', { channel: 'messaging' })), 'whatsapp');
  t.is(teamFor(routing, facts('hello', { handoffBy: 'ai' })), 'escalations');
  t.is(teamFor(routing, facts('hello', { handoffBy: 'ai', operatorId: 'op-2' })), 'general', 'every condition must hold');
  t.is(teamFor(routing, facts('refunds are not a refund keyword match?')), 'billing');
  t.is(teamFor(routing, facts('refunded')), 'general', 'whole words only');
  t.is(teamFor({ rules: [], defaultTeamId: null }, facts('anything')), null, 'no team: the common queue');
});
